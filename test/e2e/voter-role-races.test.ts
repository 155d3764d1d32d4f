import { afterAll, describe, expect, it } from '@jest/globals';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { DEFAULTS, member, voterRoleIdFor } from '../../tools/discord-standin/index.js';
import { receiverEnv, removeStoreFiles } from '../../tools/receiver-env.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';
import { endsHandled } from '../support/store-reads.js';

// Issue 16's role drills, scaled to the suite (bench/drills/roles.ts runs them at full size).
const GUILD = DEFAULTS.guildId;

afterAll(removeStoreFiles);

const polls = (bot: BotProcess) => bot.logs.filter((l) => l.msg === 'vote mirror updated').length;

async function roleWorld(settings: Record<string, string>): Promise<{ world: World; env: Record<string, string> }> {
  const { url: _url, ...env } = await receiverEnv({ VOTER_ROLE_ID: voterRoleIdFor(GUILD), ...settings });
  return { world: await startWorld({ env, ready: false }), env };
}

const grants = (world: World, ids: ReadonlySet<string>) =>
  world.discord.roleChanges.filter((c) => c.change === 'add' && ids.has(c.userId));
const holders = (world: World, ids: ReadonlySet<string>) =>
  [...ids].filter((id) => world.discord.memberRoles(id)?.includes(world.discord.voterRoleId));

describe('restarts with running voters', () => {
  it('3 restarts with 100 running voters send role PUTs only for what changed', async () => {
    const { world, env } = await roleWorld({ VOTE_POLL_SECONDS: '1' });
    let bot: BotProcess = world.bot;
    try {
      const voters = Array.from({ length: 100 }, () => member());
      world.discord.addMembers(voters);
      for (const voter of voters) world.sandbox.setVote(voter.user.id, 10 * 60_000);
      const ids = new Set(voters.map((v) => v.user.id));
      await world.discord.waitUntil(() => grants(world, ids).length >= 100, 30_000, 'the first 100 grants');

      const perRestart: number[] = [];
      const regranted: string[][] = [];
      for (let restart = 1; restart <= 3; restart++) {
        await bot.stop('SIGKILL');
        const changed: string[] = [];
        if (restart === 2) {
          // While the bot is down: 5 voters lose the role by hand, 5 members vote.
          for (const voter of voters.slice(0, 5)) {
            world.discord.setMemberRoles(voter.user.id, []);
            changed.push(voter.user.id);
          }
          const newcomers = Array.from({ length: 5 }, () => member());
          world.discord.addMembers(newcomers);
          for (const voter of newcomers) {
            world.sandbox.setVote(voter.user.id, 10 * 60_000);
            ids.add(voter.user.id);
            changed.push(voter.user.id);
          }
        }
        const before = world.discord.roleChanges.length;
        bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
        await bot.waitForLog(
          (l) => l.msg === 'voter role checked against Discord' && Number(l.running) > 0,
          20_000,
          'the start-up comparison with Discord',
        );
        // The first poll comes within a second and may add what the store did not know: a poll's
        // offers are acted on before the next poll begins, so by the second poll's line they are done.
        await world.discord.waitUntil(() => holders(world, ids).length === ids.size, 10_000, 'every voter holding it');
        await world.discord.waitUntil(() => polls(bot) >= 2, 10_000, 'the second poll');
        const made = world.discord.roleChanges.slice(before);
        perRestart.push(made.length);
        regranted.push(made.filter((c) => c.change === 'add').map((c) => c.userId));
        expect(made.map((c) => c.userId).sort()).toEqual(changed.sort());
      }
      expect(perRestart).toEqual([0, 10, 0]);
      // Asked of the gateway 100 ids to a request at most, under its send limit.
      expect(Math.max(...world.discord.memberRequestSizes)).toBeLessThanOrEqual(100);
      expect(world.discord.memberRequestSizes).toContain(100);
      expect(world.discord.gatewaySendsOverLimit).toBe(0);
    } finally {
      await bot.stop('SIGKILL');
      await world.close();
    }
  }, 90_000);
});

describe('slow member lookups and role changes around expiring votes', () => {
  it('leave 0 roles behind: 40 votes end while a restarted bot looks members up (3 s) and changes roles (250 ms)', async () => {
    const { world, env } = await roleWorld({ VOTE_POLL_SECONDS: '1', EXPIRY_CHECK_SECONDS: '1' });
    let bot: BotProcess = world.bot;
    try {
      const voters = Array.from({ length: 40 }, () => member());
      world.discord.addMembers(voters);
      // Ends spread over 12–22 s from the poll that first lists them (however long the bot took to
      // start), after the voters got the role and the bot restarted.
      for (const [i, voter] of voters.entries()) world.sandbox.setVoteFromFirstRead(voter.user.id, 12_000 + i * 250);
      const ids = new Set(voters.map((v) => v.user.id));
      await bot.waitForLog((l) => l.msg === 'ready', 15_000, 'the ready line');
      await world.discord.waitUntil(() => holders(world, ids).length === 40, 10_000, 'every voter holding the role');

      world.discord.delayMemberRequests(3_000);
      world.discord.delayRoleChanges(250);
      await bot.stop('SIGKILL');
      bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
      // Every end acted on and cleared from the store: each member's changes go one at a time in the
      // order asked, so a grant asked before the removal landed before it, and one asked after finds
      // the vote ended (the store's end, read at send time). Nothing can give the role back now.
      await endsHandled(env.DATABASE_URL!, [...ids], 30_000);
      expect(holders(world, ids)).toEqual([]);
      expect(world.discord.gatewaySendsOverLimit).toBe(0);
    } finally {
      await bot.stop('SIGKILL');
      await world.close();
    }
  }, 90_000);
});
