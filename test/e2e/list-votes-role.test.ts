import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULTS, member, voterRoleIdFor } from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { sendAs } from '../../tools/list-senders/send.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { startWorld, type World } from '../../tools/world.js';

// Issue 34: the voter role stays while a vote on any list runs and goes when the last one ends.

const GUILD = DEFAULTS.guildId;
const TOPGG_SECRET = 'whs_role0123456789abcdefghijklmnop';
const DISCOLLAB_SECRET = 'discollab-bearer-token-role-0123';

let world: World;
let url: string;
beforeAll(async () => {
  const { url: webhookUrl, ...env } = await receiverEnv({
    VOTER_ROLE_ID: voterRoleIdFor(GUILD),
    LISTING_TOPGG_SECRET: TOPGG_SECRET,
    LISTING_DISCOLLAB_SECRET: DISCOLLAB_SECRET,
  });
  url = webhookUrl;
  world = await startWorld({ env });
}, 30_000);
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

describe('the voter role over every list', () => {
  it('is given once for votes on Guilds, Top.gg and Discollab, and removed only when the last of them ends', async () => {
    const voter = member();
    world.discord.addMembers([voter]);
    const changes = () => world.discord.roleChanges.filter((c) => c.userId === voter.user.id);
    const vote = { guildId: GUILD, memberId: voter.user.id };
    const started = Date.now();
    world.sandbox.setVote(voter.user.id, 1_500);
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter.user.id))).toBe(200);
    const topgg = await sendAs('topgg', {
      url: `${url}/topgg`,
      secret: TOPGG_SECRET,
      vote: { ...vote, lengthMs: 3_500 },
    });
    const discollab = await sendAs('discollab', {
      url: `${url}/discollab`,
      secret: DISCOLLAB_SECRET,
      vote: { ...vote, lengthMs: 7_000 },
    });
    expect([topgg.status, discollab.status]).toEqual([200, 200]);

    await world.discord.waitUntil(() => changes().length >= 1, 10_000, 'the role given');
    expect(changes()[0]).toMatchObject({ change: 'add', roleId: world.discord.voterRoleId });
    await world.discord.waitUntil(() => changes().length >= 2, 20_000, 'the role removed');
    const [, removed] = changes();
    expect(changes()).toHaveLength(2);
    expect(removed).toMatchObject({ change: 'remove', roleId: world.discord.voterRoleId });
    // Not when Guilds' (1.5 s) or Top.gg's (3.5 s) vote ended: when Discollab's (7 s) did.
    expect(removed!.at - started).toBeGreaterThanOrEqual(6_000);
  }, 40_000);

  it('is given for a vote on Top.gg alone, and removed when it ends', async () => {
    const voter = member();
    world.discord.addMembers([voter]);
    const changes = () => world.discord.roleChanges.filter((c) => c.userId === voter.user.id);
    const vote = { guildId: GUILD, memberId: voter.user.id, lengthMs: 2_000 };
    expect((await sendAs('topgg', { url: `${url}/topgg`, secret: TOPGG_SECRET, vote })).status).toBe(200);
    await world.discord.waitUntil(() => changes().length >= 2, 15_000, 'the role given, then removed');
    expect(changes().map((c) => c.change)).toEqual(['add', 'remove']);
  }, 30_000);
});
