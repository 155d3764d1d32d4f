import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asMember } from '../../tools/conversation.js';
import { DEFAULTS, member, type MemberPayload } from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { sendAs } from '../../tools/list-senders/send.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { startWorld, type World } from '../../tools/world.js';

// Issue 34: an opted-in member is reminded when each list's vote runs out, naming the list; a
// Guilds vote's reminder reads as it always did.

const GUILD = DEFAULTS.guildId;
const TOPGG_SECRET = 'whs_remind0123456789abcdefghijklmnop';
const VOTE_URL = 'https://guilds.example/servers/cozy/vote';

let world: World;
let url: string;
beforeAll(async () => {
  const { url: webhookUrl, ...env } = await receiverEnv({ VOTE_URL, LISTING_TOPGG_SECRET: TOPGG_SECRET });
  url = webhookUrl;
  world = await startWorld({ env });
}, 30_000);
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

const titles = (who: MemberPayload) => world.discord.directMessages(who.user.id).map((dm) => dm.embeds[0]?.title);

async function optedIn(): Promise<MemberPayload> {
  const who = member();
  world.discord.addMembers([who]);
  await asMember(world.discord, who).subcommand('remind', 'on').waitForMessage();
  return who;
}

const topgg = (who: MemberPayload, lengthMs: number) =>
  sendAs('topgg', {
    url: `${url}/topgg`,
    secret: TOPGG_SECRET,
    vote: { guildId: GUILD, memberId: who.user.id, lengthMs },
  });

describe('reminders per list', () => {
  it('DMs once when a Top.gg vote runs out, naming Top.gg, with no Guilds vote button', async () => {
    const voter = await optedIn();
    const bystander = member();
    // Opted in too, with a vote that ends a second after the others: reminders go out in the order
    // votes end, so once this one's has come, any second one for the voter would have come first.
    const later = await optedIn();
    const started = Date.now();
    expect((await topgg(voter, 2_000)).status).toBe(200);
    expect((await topgg(bystander, 2_000)).status).toBe(200);
    expect((await topgg(later, 3_000)).status).toBe(200);
    await world.discord.waitUntil(() => titles(voter).length === 1, 15_000, 'the reminder');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    const [dm] = world.discord.directMessages(voter.user.id);
    expect(dm!.embeds[0].title).toBe('You can vote on Top.gg again');
    expect(dm!.embeds[0].description).toContain('Your vote on Top.gg for **');
    expect(dm!.components).toEqual([]);
    await world.discord.waitUntil(() => titles(later).length === 1, 15_000, 'the reminder of a vote that ended later');
    expect(titles(voter)).toHaveLength(1);
    expect(world.discord.directMessages(bystander.user.id)).toEqual([]);
  }, 20_000);

  it('reminds of a Guilds vote when it runs out while the Top.gg vote runs on, then of Top.gg: one each', async () => {
    const voter = await optedIn();
    // As above: reminded a second after the voter's last, so any repeat of the voter's comes before.
    const later = await optedIn();
    world.sandbox.setVote(voter.user.id, 2_000);
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter.user.id))).toBe(200);
    expect((await topgg(voter, 5_000)).status).toBe(200);
    expect((await topgg(later, 6_000)).status).toBe(200);
    await world.discord.waitUntil(() => titles(voter).length === 1, 15_000, 'the Guilds reminder');
    expect(titles(voter)).toEqual(['You can vote again']);
    expect(world.discord.directMessages(voter.user.id)[0]!.components[0].components[0]).toMatchObject({
      url: VOTE_URL,
    });
    await world.discord.waitUntil(() => titles(voter).length === 2, 15_000, 'the Top.gg reminder');
    expect(titles(voter)).toEqual(['You can vote again', 'You can vote on Top.gg again']);
    await world.discord.waitUntil(() => titles(later).length === 1, 15_000, 'the reminder of a vote that ended later');
    expect(titles(voter)).toHaveLength(2);
  }, 20_000);
});
