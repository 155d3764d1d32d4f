import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore, type DatabaseTarget, type StoreRoot } from '../../src/store/index.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';

const SERVER = '111111111111111111';
const OTHER_SERVER = '222222222222222222';
const ROLE = '333333333333333333';
const ALICE = '284102390141648897';

const dirs: string[] = [];
let postgres: TestPostgres | undefined;
afterAll(async () => {
  await postgres?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 30_000);

const backends: Array<[string, () => Promise<DatabaseTarget>]> = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'bot-milestones-'));
      dirs.push(dir);
      return { kind: 'sqlite', file: path.join(dir, 'bot.sqlite') };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      postgres ??= await startPostgres();
      return { kind: 'postgres', url: await postgres.createDatabase() };
    },
  ],
];

describe.each(backends)('milestones in the store (%s)', (_name, fresh) => {
  async function withStore(work: (root: StoreRoot) => Promise<void>): Promise<void> {
    const root = await openStore(await fresh());
    try {
      await work(root);
    } finally {
      await root.close();
    }
  }

  it('keeps one milestone per role, replaced when set again and unparked, apart from other servers', () =>
    withStore(async (root) => {
      const store = root.forServer(SERVER);
      await store.setMilestone({ roleId: ROLE, votes: 5, period: 'month', createdAt: 1 });
      expect(await store.parkMilestone(ROLE, 'access')).toBe(true);
      expect(await store.parkMilestone(ROLE, 'access')).toBe(false);
      expect((await store.milestones())[0]).toMatchObject({ votes: 5, period: 'month', parked: 'access' });
      await store.setMilestone({ roleId: ROLE, votes: 20, period: 'all', createdAt: 2 });
      expect(await store.milestones()).toEqual([
        { roleId: ROLE, votes: 20, period: 'all', createdAt: 1, parked: null },
      ]);
      expect(await store.unparkMilestone(ROLE)).toBe(false);
      expect(await root.forServer(OTHER_SERVER).milestones()).toEqual([]);
    }));

  it('drops a grant only for the month it was made for, and forgets grants with their milestone', () =>
    withStore(async (root) => {
      const store = root.forServer(SERVER);
      await store.setMilestone({ roleId: ROLE, votes: 1, period: 'month', createdAt: 1 });
      await store.recordMilestoneGrant({ roleId: ROLE, userId: ALICE, month: '2026-11', grantedAt: 10 });
      await store.recordMilestoneGrant({ roleId: ROLE, userId: ALICE, month: '2026-12', grantedAt: 20 });
      await store.dropMilestoneGrant(ROLE, ALICE, '2026-11');
      expect(await store.milestoneGrants()).toEqual([{ roleId: ROLE, userId: ALICE, month: '2026-12', grantedAt: 20 }]);
      expect(await root.forServer(OTHER_SERVER).milestoneGrants()).toEqual([]);
      expect(await store.removeMilestone(ROLE)).toBe(true);
      expect(await store.removeMilestone(ROLE)).toBe(false);
      expect(await store.milestoneGrants()).toEqual([]);
    }));

  it("are forgotten with the server's other rows", () =>
    withStore(async (root) => {
      const store = root.forServer(SERVER);
      await store.setMilestone({ roleId: ROLE, votes: 1, period: 'all', createdAt: 1 });
      await store.recordMilestoneGrant({ roleId: ROLE, userId: ALICE, month: '', grantedAt: 10 });
      await root.forgetServer(SERVER);
      expect(await store.milestones()).toEqual([]);
      expect(await store.milestoneGrants()).toEqual([]);
    }));
});
