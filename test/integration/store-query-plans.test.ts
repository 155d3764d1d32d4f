import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/store/index.js';
import { QUEUE_HEADS } from '../../src/store/sql-forward-outbox.js';
import { memberVotesBefore } from '../../src/store/sql.js';

// Reads whose cost must follow what they look for, not the table: a plan SQLite picks without
// statistics can read every vote of a server for one member's. Checked on the plan of a migrated
// store, where the bench only shows the slowdown once a server has many rows.

let dir: string;
let db: Database.Database;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'bot-plans-'));
  const file = path.join(dir, 'bot.sqlite');
  await (await openStore({ kind: 'sqlite', file })).close();
  db = new Database(file, { readonly: true });
});
afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const plan = (sql: string): string[] =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((row) => row.detail);

describe('SQLite query plans', () => {
  it("reads one member's votes through the member's index, not the server's votes by time", () => {
    const steps = plan(`SELECT SUM(weight) FROM votes WHERE ${memberVotesBefore("'1'", "'2'", '< 5')}`);
    expect(steps).toEqual([
      expect.stringMatching(/^SEARCH votes USING INDEX votes_member_\w+ \(guild_id=\? AND user_id=\?/),
    ]);
  });

  it("finds each forwarding destination's oldest delivery with one index probe, by both ends of the range", () => {
    const steps = plan(`${QUEUE_HEADS} SELECT id FROM heads`);
    expect(steps).toContain('SEARCH x USING COVERING INDEX forward_outbox_queue (guild_id=? AND destination_id>?)');
    expect(steps).toContain('SEARCH x USING COVERING INDEX forward_outbox_queue (guild_id>?)');
    expect(steps.filter((step) => step.startsWith('SCAN forward_outbox'))).toHaveLength(1);
  });
});
