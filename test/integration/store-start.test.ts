import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parseConfig, secretValues } from '../../src/config/bot.js';
import { EXIT_CONFIG, EXIT_FAILURE } from '../../src/core/exit-codes.js';
import { holdStore, openStore, StoreError, type StandbyReason, type StoreLock } from '../../src/store/index.js';
import { holdPostgresLock, LOCK_APPLICATION_NAME, LOCK_KEY } from '../../src/store/postgres-lock.js';
import { openSqlite } from '../../src/store/sqlite.js';
import { sqliteDrivers } from '../../src/store/sqlite-driver.js';
import { problemsOf, VALID_ENV } from '../support/config-env.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { closedPort } from '../../tools/closed-port.js';
import { damagePages } from '../support/sqlite-damage.js';
import { countLockProbes } from '../support/lock-probes.js';
import { pollUntil } from '../support/poll-until.js';

const dirs: string[] = [];
function freshFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'bot-store-start-'));
  dirs.push(dir);
  return path.join(dir, 'bot.sqlite');
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function rejection(promise: Promise<unknown>): Promise<StoreError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    return error as StoreError;
  }
  throw new Error('expected the promise to reject');
}

const noStandby = { onStandby: () => undefined, onLost: () => undefined };

describe.each(sqliteDrivers())('a SQLite store through $name', (driver) => {
  it('refuses a second holder of one file, naming DATABASE_URL, and lets one in once the first lets go', async () => {
    const file = freshFile();
    const first = await holdStore({ kind: 'sqlite', file }, noStandby, driver);
    const refused = await rejection(holdStore({ kind: 'sqlite', file }, noStandby, driver));
    expect(refused.message).toBe(
      `Another process holds the store ${file} (DATABASE_URL): its lock ${file}.lock is taken. One bot runs on a SQLite file at a time: stop the other one (it may still be shutting down), or give this one its own DATABASE_URL.`,
    );
    expect(refused.exitCode).toBe(EXIT_FAILURE);
    await first.release();
    const next = await holdStore({ kind: 'sqlite', file }, noStandby, driver);
    await next.release();
  });

  it('leaves the store itself open to readers while the lock is held (backups, the sqlite3 shell)', async () => {
    const file = freshFile();
    const lock = await holdStore({ kind: 'sqlite', file }, noStandby, driver);
    try {
      const store = await openStore({ kind: 'sqlite', file }, driver);
      const again = await openStore({ kind: 'sqlite', file }, driver);
      expect(await again.schemaVersion()).toBe(await store.schemaVersion());
      await Promise.all([store.close(), again.close()]);
    } finally {
      await lock.release();
    }
  });

  it('refuses a damaged file at open, naming it, DATABASE_URL and how to restore', async () => {
    const file = freshFile();
    const store = await openStore({ kind: 'sqlite', file }, driver);
    await store.addEvent('111111111111111111', 'review', { id: 'r1' }, Date.now());
    await store.close();
    damagePages(file, [2, 3]);
    const refused = await rejection(openStore({ kind: 'sqlite', file }, driver));
    expect(refused.exitCode).toBe(EXIT_CONFIG);
    expect(refused.message).toMatch(
      new RegExp(`^The store ${escape(file)} \\(DATABASE_URL\\) is damaged \\(.+\\)\\. `),
    );
    expect(refused.message).toContain(`put back a backup copy of ${file}, or move it away`);
    expect(refused.message).toContain('to start with an empty store');
  });

  it('says the disk is full when a write finds no room, not "cannot rollback"', async () => {
    const file = freshFile();
    const db = openSqlite(file, driver);
    try {
      await db.query('CREATE TABLE filler (text TEXT)');
      const [row] = await db.query('PRAGMA page_count');
      // SQLite answers SQLITE_FULL at max_page_count as it does on a full disk.
      await db.query(`PRAGMA max_page_count = ${Number(Object.values(row!)[0]) + 2}`);
      const refused = await rejection(
        db.transaction(async (tx) => {
          for (let i = 0; i < 50; i++) await tx.query('INSERT INTO filler (text) VALUES ($1)', ['x'.repeat(4000)]);
        }),
      );
      expect(refused.message).toMatch(
        new RegExp(
          `^The disk holding the store ${escape(file)} \\(DATABASE_URL\\) is full \\(database or disk is full\\)`,
        ),
      );
      expect(refused.message).not.toMatch(/cannot rollback/);
      // Nothing half-written stays behind, and the store takes writes again once there is room.
      expect(await db.query('SELECT COUNT(*) AS n FROM filler')).toEqual([{ n: 0 }]);
      await db.query('PRAGMA max_page_count = 1000000');
      await db.transaction((tx) => tx.query('INSERT INTO filler (text) VALUES ($1)', ['fits']));
    } finally {
      await db.close();
    }
  });
});

describe('DATABASE_URL with a % in the password', () => {
  const url = 'postgres://bot:50%off@db.internal:5432/bot';

  it('is refused as configuration, naming DATABASE_URL and the fix, without the password', () => {
    const problems = problemsOf({ ...VALID_ENV, DATABASE_URL: url });
    expect(problems).toEqual([
      'DATABASE_URL has a % in its password that is not followed by two hex digits: write a % there as %25 (and @ : / ? # as %40 %3A %2F %3F %23)',
    ]);
    expect(problems.join('\n')).not.toContain('50%off');
  });

  it('works written as %25, and the decoded password is one of the secrets kept out of logs', () => {
    const config = parseConfig({ ...VALID_ENV, DATABASE_URL: 'postgres://bot:50%25off@db.internal:5432/bot' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://bot:50%25off@db.internal:5432/bot' });
    expect(secretValues(config)).toContain('50%off');
  });
});

describe('the PostgreSQL store lock', () => {
  let server: TestPostgres;
  let url: string;
  const timing = { pollMs: 100, regainMs: 300, heartbeatMs: 200, reconnect: { baseMs: 50, capMs: 200 } };
  const probes = countLockProbes();
  /** Two more probes of a standby (every pollMs) were refused: a third began after them. */
  const refusedTwiceMore = async () => {
    const from = probes.count();
    await until(() => probes.count() >= from + 3);
  };
  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase();
  }, 60_000);
  afterAll(() => {
    probes.restore();
    return server?.stop();
  }, 30_000);

  // PGlite serves every connection from one session, so one holder cannot keep another out there.
  const realServer = () => server.kind === 'postgres';

  it('keeps a second process waiting as a standby until the first lets go, then hands it over', async () => {
    if (!realServer()) return;
    const first = await holdPostgresLock(url, noStandby, timing);
    const reasons: StandbyReason[] = [];
    let second: Awaited<ReturnType<typeof holdPostgresLock>> | undefined;
    const waiting = holdPostgresLock(url, { ...noStandby, onStandby: (r) => reasons.push(r) }, timing).then(
      (lock) => (second = lock),
    );
    await until(() => reasons.length > 0);
    await refusedTwiceMore();
    expect(second).toBeUndefined();
    expect(reasons).toEqual([{ kind: 'held', detail: expect.stringMatching(/another process holds the store/) }]);
    await first.release();
    await waiting;
    expect(second).toBeDefined();
    await second!.release();
  });

  it('takes the lock back when its connection is cut and nobody else took it: the holder goes on acting', async () => {
    if (!realServer()) return;
    const lost: unknown[] = [];
    const interrupted: string[] = [];
    const lock = await holdPostgresLock(
      url,
      { ...noStandby, onLost: (e) => lost.push(e), onInterrupted: (e) => interrupted.push(e.kind) },
      timing,
    );
    await terminateLockSessions(url, 1);
    await until(() => interrupted.length === 2);
    expect(interrupted).toEqual(['dropped', 'regained']);
    expect(lost).toEqual([]);
    // Held again: a second holder waits.
    let second: StoreLock | undefined;
    const stop = new AbortController();
    const reasons: StandbyReason[] = [];
    const waiting = holdPostgresLock(
      url,
      { ...noStandby, onStandby: (r) => reasons.push(r), signal: stop.signal },
      timing,
    ).then((l) => (second = l));
    await until(() => reasons.length > 0);
    await refusedTwiceMore();
    expect(second).toBeUndefined();
    stop.abort(new Error('test over'));
    await expect(waiting).rejects.toThrow('test over');
    await lock.release();
  });

  it('tells the holder it lost the lock when another process took it first, so it stops acting', async () => {
    if (!realServer()) return;
    const lost: unknown[] = [];
    const lock = await holdPostgresLock(url, { ...noStandby, onLost: (e) => lost.push(e) }, timing);
    const other = new pg.Client({ connectionString: url });
    other.on('error', () => undefined);
    await other.connect();
    try {
      // Queued behind the holder before its session is cut, so PostgreSQL hands the lock to this one
      // the moment the holder's session ends, before the holder's new connection can ask.
      const taken = other.query('SELECT pg_advisory_lock($1, $2)', [...LOCK_KEY]);
      await untilAsync(async () => (await lockWaiters(url)) === 1);
      await terminateLockSessions(url, 1);
      await taken;
      await until(() => lost.length === 1);
      expect(String(lost[0])).toMatch(/another process took the store lock/);
    } finally {
      await other.end();
      await lock.release();
    }
  });

  it('waits while the server does not answer, saying so with DATABASE_URL and without the password', async () => {
    const port = await closedPort();
    const reasons: StandbyReason[] = [];
    const stop = new AbortController();
    const waiting = holdPostgresLock(
      `postgres://bot:secret-pw@127.0.0.1:${port}/bot`,
      { ...noStandby, onStandby: (r) => reasons.push(r), signal: stop.signal },
      timing,
    );
    await until(() => reasons.length >= 3);
    stop.abort(new Error('test over'));
    await expect(waiting).rejects.toThrow('test over');
    expect(reasons[0]).toEqual({
      kind: 'unreachable',
      detail: `PostgreSQL at postgres://bot@127.0.0.1:${port}/bot (DATABASE_URL) does not answer (connect ECONNREFUSED 127.0.0.1:${port}): start PostgreSQL, or fix the host and port in DATABASE_URL.`,
      retryInMs: expect.any(Number),
    });
    expect(JSON.stringify(reasons)).not.toContain('secret-pw');
  });

  it('stops waiting with a configuration error when the database does not exist', async () => {
    if (!realServer()) return;
    const missing = new URL(url);
    missing.pathname = '/no_such_database';
    const refused = await rejection(holdPostgresLock(missing.toString(), noStandby, timing));
    expect(refused.exitCode).toBe(EXIT_CONFIG);
    expect(refused.message).toMatch(
      /^PostgreSQL at postgres:\/\/.*\/no_such_database \(DATABASE_URL\): database "no_such_database" does not exist \(3D000\)\. Create the database, or name an existing one in DATABASE_URL\.$/,
    );
  });
});

async function terminateLockSessions(url: string, expected: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND pid IN (SELECT pid FROM pg_locks WHERE locktype = $2 AND granted)',
      [LOCK_APPLICATION_NAME, 'advisory'],
    );
    expect(rows).toHaveLength(expected);
  } finally {
    await client.end();
  }
}

/** Sessions waiting for the store lock. */
async function lockWaiters(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = $1 AND NOT granted AND classid = $2 AND objid = $3 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())',
      ['advisory', ...LOCK_KEY],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** Lock holders' callbacks and PostgreSQL's lock table are state with no event of their own. */
const untilAsync = (condition: () => Promise<boolean>, timeoutMs = 10_000) =>
  pollUntil(condition, 'a condition', { timeoutMs, everyMs: 20 });
const until = (condition: () => boolean, timeoutMs = 10_000) =>
  pollUntil(condition, 'a condition', { timeoutMs, everyMs: 20 });

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
