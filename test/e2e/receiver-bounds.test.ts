import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { textOf } from '../../tools/conversation.js';
import {
  buttonClick,
  member,
  MODERATOR_PERMISSIONS,
  modalSubmit,
  nextSnowflake,
  OptionType,
  slashCommand,
  textChannelIdFor,
  type CommandOption,
  type Message,
} from '../../tools/discord-standin/index.js';
import { post, requestAs } from '../../tools/list-senders/send.js';
import { receiverEnv, removeStoreFiles } from '../../tools/receiver-env.js';
import { startWorld, type World } from '../../tools/world.js';
import { voteMentions } from '../support/multi-server.js';

// Issue 47, items 6, 7 and 10, through the built bot serving many servers: what a sender from
// outside can do to one server's log lines, counts and delivery log. A is on Top.gg and Discadia.
const A = nextSnowflake();
const KEY = { apiKey: 'bounds-a-api-key-1357', appId: 'bounds-a-app-id-2468' };
const TOPGG_SECRET = `whs_${randomBytes(18).toString('hex')}`;
/** Just past where that many weights of 2^53-1 overflow a 64-bit SUM. */
const FLOOD = 1_025;

let world: World;
let receiverUrl: string;
const admin = member({ permissions: MODERATOR_PERMISSIONS });
/** Every secret the bot holds for A, to look for in the log at the end. */
const secrets: string[] = [TOPGG_SECRET];
let discadiaSecret: string;

const sub = (name: string, options: CommandOption[] = []): CommandOption[] => [
  { name, type: OptionType.Subcommand, options },
];
const listing = (name: string, site: string): CommandOption[] => [
  {
    name: 'listing',
    type: OptionType.SubcommandGroup,
    options: sub(name, [{ name: 'site', type: OptionType.String, value: site }]),
  },
];
const setup = (options: CommandOption[]) =>
  world.discord.sendInteraction(slashCommand({ name: 'setup', guildId: A, member: admin, options }));
const field = (message: Message, name: string) =>
  ((message.embeds[0]!.fields ?? []) as Array<{ name: string; value: string }>)
    .find((f) => f.name === name)
    ?.value.replace(/`/g, '') ?? '';
const ask = (name: string, options: CommandOption[] = []) =>
  world.discord
    .sendInteraction(slashCommand({ name, guildId: A, member: admin, options }))
    .waitForMessage(15_000)
    .then(textOf);

/** Sends `count` requests, `width` at a time; their statuses. */
async function inParallel(count: number, width: number, send: (i: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  for (let start = 0; start < count; start += width)
    statuses.push(
      ...(await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, i) => send(start + i)))),
    );
  return statuses;
}

beforeAll(async () => {
  const { url, ...env } = await receiverEnv({ WEBHOOK_TOKEN: '', WEBHOOK_PUBLIC_URL: 'https://bot.example.com' });
  receiverUrl = url;
  world = await startWorld({
    sandbox: KEY,
    discord: { guildId: A },
    // Many servers: none from .env, each set up with /setup.
    env: {
      ...env,
      DISCORD_GUILD_ID: '',
      SERVICE_API_KEY: '',
      SERVICE_APP_ID: '',
      MODERATOR_ROLE_IDS: '',
      REVIEW_LOG_CHANNEL_ID: '',
      SECRETS_KEY: randomBytes(32).toString('base64'),
    },
  });

  const modal = await setup(sub('credentials')).waitForModal();
  await world.discord
    .sendInteraction(
      modalSubmit({
        customId: modal.custom_id,
        guildId: A,
        member: admin,
        fields: { api_key: KEY.apiKey, app_id: KEY.appId },
      }),
    )
    .waitForMessage(10_000);
  await setup(
    sub('channel', [
      { name: 'kind', type: OptionType.String, value: 'votes' },
      { name: 'target', type: OptionType.Channel, value: textChannelIdFor(A) },
    ]),
  ).waitForMessage();
  secrets.push(field(await setup(sub('webhook')).waitForMessage(), 'Token'));
  const topgg = await setup(listing('add', 'topgg')).waitForMessage();
  const form = await world.discord
    .sendInteraction(buttonClick({ customId: 'setup-listing:topgg', message: topgg, member: admin, guildId: A }))
    .waitForModal();
  await world.discord
    .sendInteraction(
      modalSubmit({ customId: form.custom_id, guildId: A, member: admin, fields: { secret: TOPGG_SECRET } }),
    )
    .waitForMessage(10_000);
  discadiaSecret = field(await setup(listing('add', 'discadia')).waitForMessage(), 'Secret');
  expect(discadiaSecret.length).toBeGreaterThan(20);
  secrets.push(discadiaSecret);
}, 90_000);
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

describe("what a sender from outside can do to a server's receiver", () => {
  it('logs a Discadia address with a trailing slash only up to the site id, never the secret in it', async () => {
    const address = `${receiverUrl}/${A}/discadia/${encodeURIComponent(discadiaSecret)}/`;
    expect(
      await post({ url: address, headers: {}, body: JSON.stringify({ user_id: nextSnowflake(), guild_id: A }) }),
    ).toBe(404);
    const refused = await world.bot.waitForLog(
      (line) => line.msg === 'webhook delivery refused' && line.reason === 'not_found',
      10_000,
      'the 404 refusal',
    );
    expect(refused.path).toBe(`/webhook/${A}/discadia/...`);
    expect(JSON.stringify(world.bot.logs) + world.bot.stderr()).not.toContain(discadiaSecret);
  });

  it('counts 1,025 Top.gg votes of weight 2^53-1 as 2 each: /leaderboard, /stats and announcements keep working', async () => {
    const voter = nextSnowflake();
    const statuses = await inParallel(FLOOD, 25, (i) =>
      post(
        requestAs('topgg', {
          url: `${receiverUrl}/${A}/topgg`,
          secret: TOPGG_SECRET,
          vote: { guildId: A, memberId: voter, weight: Number.MAX_SAFE_INTEGER, siteEventId: `flood-${i}` },
        }),
      ),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
    await world.discord.waitUntil(
      () => voteMentions(world.discord, A, voter) === FLOOD,
      60_000,
      'every vote announced',
    );
    expect(await ask('leaderboard')).toMatch(new RegExp(`<@${voter}>.* · 2,?050 votes`));
    expect(await ask('stats', [{ name: 'days', type: OptionType.Integer, value: 1 }])).toMatch(/2,?050 votes in 1 day/);
    const clamped = world.bot.logs.filter(
      (line) => line.userId === voter && line.weightSent === Number.MAX_SAFE_INTEGER,
    );
    expect(clamped).toHaveLength(FLOOD);
    expect(clamped[0]).toMatchObject({ weight: 2, site: 'topgg' });
  }, 120_000);

  it('keeps the accepted deliveries in /setup status when a dozen bad signatures follow them', async () => {
    const topggAddress = `${receiverUrl}/${A}/topgg`;
    const voters = [nextSnowflake(), nextSnowflake(), nextSnowflake()];
    for (const voter of voters)
      expect(
        await post(
          requestAs('topgg', { url: topggAddress, secret: TOPGG_SECRET, vote: { guildId: A, memberId: voter } }),
        ),
      ).toBe(200);
    await world.bot.waitForLog(
      (line) => line.msg === 'vote accepted' && line.userId === voters[2],
      10_000,
      'the last of the three votes handled',
    );
    const forged = `whs_${randomBytes(18).toString('hex')}`;
    for (let i = 0; i < 12; i++) {
      const vote = { guildId: A, memberId: nextSnowflake() };
      expect(await post(requestAs('topgg', { url: topggAddress, secret: forged, vote }))).toBe(401);
    }
    const status = await setup(sub('status')).waitForMessage(15_000);
    const log = status.embeds.find((e: { title?: string }) => e.title === 'Last webhook deliveries')!;
    const lines = (log.description as string).split('\n').filter((line) => /^[✔✘]/.test(line));
    // Newest first: the refusals came last, 10 of the 12 kept in a window of their own.
    expect(
      lines
        .slice(0, 10)
        .every((line) =>
          line.endsWith("· Top.gg unknown event · refused: the signature or secret does not match the list's secret"),
        ),
    ).toBe(true);
    // The fix names the list and the command that sets its secret, not Guilds' token.
    expect(log.description).toContain(
      "Top.gg's deliveries do not match its secret: copy the secret from Top.gg's webhook page again with /setup listing add site:topgg",
    );
    expect(log.description).not.toContain('wrong token');
    expect(lines.filter((line) => line.includes('refused'))).toHaveLength(10);
    // Below them the accepted ones, the three just sent included (the flood above may fill the window).
    expect(lines.slice(10).length).toBeGreaterThanOrEqual(voters.length);
    expect(lines.slice(10).every((line) => line.endsWith('· Top.gg `vote` · stored'))).toBe(true);
  });

  it('never writes a secret the bot holds for the server in its log', () => {
    const log = JSON.stringify(world.bot.logs) + world.bot.stderr();
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
