import { afterAll, describe, expect, it } from '@jest/globals';
import { DEFAULTS, member, voterRoleIdFor } from '../../tools/discord-standin/index.js';
import { receiverEnv, removeStoreFiles } from '../../tools/receiver-env.js';
import { startWorld } from '../../tools/world.js';

afterAll(removeStoreFiles);

describe("Discord's per-route waits in the log", () => {
  it('are counted into one info line, not a line (or a warning) each: a burst of role changes waits on the bucket', async () => {
    const { url: _url, ...env } = await receiverEnv({ VOTER_ROLE_ID: voterRoleIdFor(DEFAULTS.guildId) });
    const world = await startWorld({ env: { ...env, VOTE_POLL_SECONDS: '1', LOG_LEVEL: 'debug' }, ready: false });
    try {
      // 30 grants against the stand-in's 10 role changes per second: discord.js waits for the bucket.
      const voters = Array.from({ length: 30 }, () => member());
      world.discord.addMembers(voters);
      for (const voter of voters) world.sandbox.setVote(voter.user.id, 10 * 60_000);
      const ids = new Set(voters.map((v) => v.user.id));
      await world.discord.waitUntil(
        () => world.discord.roleChanges.filter((c) => ids.has(c.userId)).length === 30,
        20_000,
        'the 30 grants',
      );
      // The first wait is written at once (no line in the minute before it); the rest wait for the next minute.
      const pacing = world.bot.logs.filter((l) => l.msg === 'discord pacing: requests waited');
      expect(pacing).toEqual([expect.objectContaining({ level: 30, counts: { route: 1 } })]);
      expect(world.bot.logs.filter((l) => String(l.msg).startsWith('discord rate limit'))).toEqual([]);
      // The waits counted since that line are written as the bot stops, not lost with it.
      await world.bot.stop('SIGTERM');
      const written = world.bot.logs.filter((l) => l.msg === 'discord pacing: requests waited');
      expect(written).toHaveLength(2);
      expect((written[1]!.counts as { route: number }).route).toBeGreaterThan(0);
    } finally {
      await world.close();
    }
  }, 40_000);
});
