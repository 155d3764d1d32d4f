import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { DEFAULTS, member, voterRoleIdFor } from '../../tools/discord-standin/index.js';
import { receiverEnv, removeStoreFiles } from '../../tools/receiver-env.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';
import type { Drill } from './types.js';

// The voter role's drills at full size; test/e2e/voter-role-races.test.ts runs them scaled down.
const GUILD = DEFAULTS.guildId;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function roleWorld(settings: Record<string, string>): Promise<{ world: World; env: Record<string, string> }> {
  const { url: _url, ...env } = await receiverEnv({ VOTER_ROLE_ID: voterRoleIdFor(GUILD), ...settings });
  return { world: await startWorld({ env, ready: false, discord: { maxLog: 50_000 } }), env };
}

const holders = (world: World, ids: ReadonlySet<string>) =>
  [...ids].filter((id) => world.discord.memberRoles(id)?.includes(world.discord.voterRoleId));

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > until) return false;
    await sleep(100);
  }
  return true;
}

/** 1,000 voters hold the role; the bot restarts 3 times, and before the second 10 lose it by hand and 10 vote. */
const restarts: Drill = {
  name: 'role-restarts',
  async run(progress) {
    const { world, env } = await roleWorld({ VOTE_POLL_SECONDS: '5' });
    let bot: BotProcess = world.bot;
    try {
      const voters = Array.from({ length: 1_000 }, () => member());
      world.discord.addMembers(voters);
      for (const voter of voters) world.sandbox.setVote(voter.user.id, 60 * 60_000);
      const ids = new Set(voters.map((v) => v.user.id));
      if (!(await waitFor(() => holders(world, ids).length === ids.size, 240_000)))
        throw new Error(`only ${holders(world, ids).length} of 1,000 voters got the role`);
      progress('role-restarts: 1,000 voters hold the role');
      const changes: number[] = [];
      const expected: number[] = [];
      const lookups: number[] = [];
      const settled: number[] = [];
      const allowed: number[] = [];
      for (let restart = 1; restart <= 3; restart++) {
        await bot.stop('SIGKILL');
        let changed = 0;
        if (restart === 2) {
          for (const voter of voters.slice(0, 10)) world.discord.setMemberRoles(voter.user.id, []);
          const newcomers = Array.from({ length: 10 }, () => member());
          world.discord.addMembers(newcomers);
          for (const voter of newcomers) {
            world.sandbox.setVote(voter.user.id, 60 * 60_000);
            ids.add(voter.user.id);
          }
          changed = 20;
        }
        const before = world.discord.roleChanges.length;
        const requestsBefore = world.discord.memberRequests;
        const started = performance.now();
        bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
        const checked = await bot.waitForLog(
          (l) => l.msg === 'voter role checked against Discord' && Number(l.running) > 0,
          120_000,
          'the start-up comparison',
        );
        // 100 ids to a request, and the first poll may ask once more for voters it found new.
        allowed.push(Math.ceil(Number(checked.running) / 100) + 1);
        await waitFor(() => holders(world, ids).length === ids.size, 60_000);
        settled.push(performance.now() - started);
        // A poll (every 5 s) has run since: what it adds is counted too.
        await sleep(6_000);
        changes.push(world.discord.roleChanges.length - before);
        expected.push(changed);
        lookups.push(world.discord.memberRequests - requestsBefore);
        progress(`role-restarts: restart ${restart}: ${changes.at(-1)} role changes`);
      }
      const d = '3 restarts with 1,000 running voters (10 taken by hand, 10 new before the 2nd)';
      const held = holders(world, ids).length;
      return [
        {
          drill: d,
          figure: 'role changes per restart',
          value: changes.join(' / '),
          goal: expected.join(' / '),
          met: changes.every((n, i) => n === expected[i]),
        },
        {
          drill: d,
          figure: 'op 8 requests per restart',
          value: lookups.join(' / '),
          goal: `≤ ${allowed.join(' / ')} (100 ids each)`,
          met: lookups.every((n, i) => n <= allowed[i]!),
        },
        {
          drill: d,
          figure: 'start until every voter holds it',
          value: settled.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(' / '),
          goal: '—',
          met: true,
        },
        {
          drill: d,
          figure: 'voters holding the role / gateway closes (4008)',
          value: `${held} of ${ids.size} / ${world.discord.gatewaySendsOverLimit}`,
          goal: `${ids.size} / 0`,
          met: held === ids.size && world.discord.gatewaySendsOverLimit === 0,
        },
      ];
    } finally {
      await bot.stop('SIGKILL');
      await world.close();
      removeStoreFiles();
    }
  },
};

/** 40 voters hold the role; the bot restarts with 8 s lookups and 250 ms role changes while their votes end. */
const expiring: Drill = {
  name: 'role-expiring',
  async run(progress) {
    const { world, env } = await roleWorld({ VOTE_POLL_SECONDS: '1', EXPIRY_CHECK_SECONDS: '1' });
    let bot: BotProcess = world.bot;
    try {
      const voters = Array.from({ length: 40 }, () => member());
      world.discord.addMembers(voters);
      const ids = new Set(voters.map((v) => v.user.id));
      // Ends over 12–32 s from now: during the start-up lookup (8 s) and the heal passes after it.
      for (const [i, voter] of voters.entries()) world.sandbox.setVote(voter.user.id, 12_000 + i * 500);
      const endsBy = Date.now() + 12_000 + 40 * 500;
      if (!(await waitFor(() => holders(world, ids).length === 40, 10_000)))
        throw new Error('the 40 voters did not get the role');
      world.discord.delayMemberRequests(8_000);
      world.discord.delayRoleChanges(250);
      const grantsBefore = world.discord.roleChanges.filter((c) => c.change === 'add' && ids.has(c.userId)).length;
      await bot.stop('SIGKILL');
      bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
      progress('role-expiring: restarted with slow lookups and role changes');
      await sleep(Math.max(0, endsBy - Date.now()));
      // Lookups (8 s) and queued changes started before the last end land, then a margin.
      await waitFor(() => holders(world, ids).length === 0, 30_000);
      await sleep(10_000);
      const left = holders(world, ids).length;
      const regranted =
        world.discord.roleChanges.filter((c) => c.change === 'add' && ids.has(c.userId)).length - grantsBefore;
      const d = '40 votes ending across a restart, 8 s member lookups, 250 ms role changes';
      return [
        { drill: d, figure: 'roles left behind', value: String(left), goal: '0', met: left === 0 },
        {
          drill: d,
          figure: 'role grants after the restart',
          value: String(regranted),
          goal: '0',
          met: regranted === 0,
        },
      ];
    } finally {
      await bot.stop('SIGKILL');
      await world.close();
      removeStoreFiles();
    }
  },
};

export const roleDrills: Drill[] = [restarts, expiring];
