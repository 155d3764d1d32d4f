import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { REST } from 'discord.js';
import { discordPoster } from '../../src/bot/poster.js';
import { english } from '../../src/i18n/index.js';
import { VoterRole } from '../../src/roles/voter-role.js';
import { ServerVotes } from '../../src/runtime/server-votes.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { sweptSchedule } from '../support/swept-schedule.js';
import { openStore, type ScheduledExpiry, type Store, type StoreRoot } from '../../src/store/index.js';
import { capturedLog } from '../support/captured-log.js';
import { pollUntil } from '../support/poll-until.js';
import { unpolledMirror } from '../support/unpolled-mirror.js';
import { member, nextSnowflake, startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';

/*
 * Issue 34 item 4: the mirror and the expiry schedule read Guilds' votes from the service and every
 * list's from the ledger. Another list's running vote neither hides a Guilds vote from the poll nor
 * is overwritten by each reconcile, and the voter role is held while any list's vote runs.
 */
const HOUR = 3_600_000;

let sandbox: Sandbox;
let discord: DiscordStandIn;
let root: StoreRoot;
beforeAll(async () => {
  sandbox = await startSandbox();
  discord = await startDiscordStandIn();
  root = await openStore({ kind: 'sqlite', file: ':memory:' });
});
afterEach(() => sandbox.reset());
afterAll(async () => {
  await root?.close();
  await discord?.close();
  await sandbox?.close();
});

/** The state these wait on (a role on the stand-in, a count of passes) sends no event of its own. */
const until = (done: () => boolean | Promise<boolean>, ms: number, what: string) =>
  pollUntil(done, what, { timeoutMs: ms, everyMs: 10 });

/**
 * The process's expiry pass over `root`, counting the firings that have finished (each ends with
 * its read of the next end): one that finished after another began after it, on the clock as it was.
 */
function countedFirings(): { root: StoreRoot; fired: () => number } {
  let fired = 0;
  const counting = new Proxy(root, {
    get(target, key, receiver) {
      if (key === 'nextExpiryAfter')
        return async (at: number) => {
          const next = await target.nextExpiryAfter(at);
          fired += 1;
          return next;
        };
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { root: counting, fired: () => fired };
}

const topggVote = (userId: string, at: number, periodEndsAt: number) => ({
  userId,
  at,
  double: false,
  source: 'webhook' as const,
  periodEndsAt,
  site: 'topgg',
  weight: 1,
});

function voterRole(store: Store, now: () => number = Date.now): VoterRole {
  const rest = new REST({ api: discord.apiUrl }).setToken(discord.token);
  return new VoterRole({
    rest,
    poster: discordPoster(rest),
    guildId: discord.guildId,
    roleId: discord.voterRoleId,
    logger: capturedLog([discord.token]).logger,
    now,
    auditChannelId: undefined,
    i18n: () => english,
    probeMs: 60_000,
    runningUntil: async (userId) => (await store.scheduledExpiry(userId))?.endsAt,
  });
}

const holdsRole = (userId: string) => discord.memberRoles(userId)?.includes(discord.voterRoleId) ?? false;

describe('the poll', () => {
  it("records a Guilds vote the webhook missed while the member's Top.gg vote runs, at Guilds' own end", async () => {
    const store = root.forServer(nextSnowflake());
    const mirror = unpolledMirror(sandbox, store);
    await mirror.poll(); // the first poll only seeds
    const voter = nextSnowflake();
    const now = Date.now();
    await store.acceptVote(topggVote(voter, now, now + 12 * HOUR));
    sandbox.setVote(voter, HOUR);
    await mirror.poll();
    await mirror.stop();

    expect(await store.votesBetween(0, Date.now() + 1, 'guilds')).toEqual([{ userId: voter, votes: 1 }]);
    const guildsEnd = (await store.runningVotes(Date.now(), 'guilds')).get(voter)!;
    expect(Math.abs(guildsEnd - (now + HOUR))).toBeLessThan(5_000);
    // The Top.gg vote keeps its own end.
    expect((await store.runningVotes(Date.now(), 'topgg')).get(voter)).toBe(now + 12 * HOUR);
  });
});

describe('the expiry schedule', () => {
  it("does not rewrite, pass after pass, an end that is another list's", async () => {
    const store = root.forServer(nextSnowflake());
    const voter = nextSnowflake();
    const now = Date.now();
    await store.acceptVote(topggVote(voter, now, now + 12 * HOUR));
    await store.setMirrorEntry(voter, { userId: voter, expiresAt: now + HOUR, viaDiscord: false });
    const written: ScheduledExpiry[] = [];
    const counting = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'scheduleExpiries')
          return (ends: readonly ScheduledExpiry[]) => {
            written.push(...ends);
            return target.scheduleExpiries(ends);
          };
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    let passes = 0;
    // Every pass after the first (a full one) asks its consumers to heal.
    let heals = 0;
    const schedule = sweptSchedule(root, {
      guildId: store.guildId,
      store: counting,
      logger: capturedLog().logger,
      now: Date.now,
      consumers: [
        {
          name: 'passes',
          onActive: async () => void passes++,
          onExpired: async () => undefined,
          heal: async () => void heals++,
        },
      ],
      reconcileMs: 50,
    });
    schedule.start();
    try {
      await until(() => passes >= 1, 5_000, 'the first pass');
      await until(() => heals >= 5, 5_000, 'five passes after it');
    } finally {
      await schedule.stop();
    }
    expect(written).toEqual([]);
    expect((await store.scheduledExpiry(voter))?.endsAt).toBe(now + 12 * HOUR);
  });

  it("gives the voter role at start to a member whose only running vote is another list's, and takes it when it ends", async () => {
    const store = root.forServer(discord.guildId);
    const voter = member();
    discord.addMembers([voter]);
    // The schedule and the role read this clock, moved by the test past the vote's end; each pass
    // (every 50 ms of real time) fires what is due on it.
    let clock = Date.now();
    const now = () => clock;
    await store.acceptVote(topggVote(voter.user.id, clock, clock + 1_500));
    const schedule = sweptSchedule(root, {
      guildId: store.guildId,
      store,
      logger: capturedLog().logger,
      now,
      consumers: [voterRole(store, now)],
      reconcileMs: 50,
    });
    schedule.start();
    try {
      await until(() => holdsRole(voter.user.id), 5_000, 'the grant');
      clock += 1_500;
      await until(() => !holdsRole(voter.user.id), 5_000, 'the removal');
    } finally {
      await schedule.stop();
    }
    expect(discord.roleChanges.filter((c) => c.userId === voter.user.id).map((c) => c.change)).toEqual([
      'add',
      'remove',
    ]);
  });

  it('keeps the role while a Top.gg vote runs after the Guilds one ended, and gives it for a Top.gg vote at once', async () => {
    const store = root.forServer(discord.guildId);
    // The schedule and the role read this clock, moved by the test; each pass (every 50 ms of real
    // time) fires what is due on it.
    let clock = Date.now();
    const now = () => clock;
    const firings = countedFirings();
    const schedule = sweptSchedule(firings.root, {
      guildId: store.guildId,
      store,
      logger: capturedLog().logger,
      now,
      consumers: [voterRole(store, now)],
      reconcileMs: 50,
    });
    const votes = new ServerVotes({
      lanes: { wakeVotes: () => undefined },
      milestones: { wake: () => undefined },
      streaks: { changed: () => undefined },
      schedule,
    });
    schedule.start();
    const voter = member();
    discord.addMembers([voter]);
    const userId = voter.user.id;
    try {
      const start = clock;
      // Guilds first (ends in 0.5 s), then Top.gg (ends in 2 s).
      await store.acceptVote({ userId, at: start, double: false, source: 'webhook', periodEndsAt: start + 500 });
      await votes.newVote(userId, start + 500);
      await until(() => holdsRole(userId), 5_000, 'the grant');
      await store.acceptVote(topggVote(userId, start + 1, start + 2_000));
      await votes.newVote(userId, start + 2_000, 'topgg');
      // Past the Guilds end: two firings that began after the move find nothing to take.
      clock = start + 1_000;
      const before = firings.fired();
      await until(() => firings.fired() >= before + 2, 5_000, 'two firings past the Guilds end');
      expect(holdsRole(userId)).toBe(true);
      clock = start + 2_000;
      await until(() => !holdsRole(userId), 5_000, 'the removal');

      // A Top.gg vote alone, recorded while the schedule runs: the role at once.
      const again = clock;
      await store.acceptVote(topggVote(userId, again, again + HOUR));
      await votes.newVote(userId, again + HOUR, 'topgg');
      await until(() => holdsRole(userId), 5_000, 'the grant for the Top.gg vote');
    } finally {
      await schedule.stop();
    }
    expect(discord.roleChanges.filter((c) => c.userId === userId).map((c) => c.change)).toEqual([
      'add',
      'remove',
      'add',
    ]);
  });
});
