import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LIST_SITE_IDS, listingSecretVariable, SITE_FACTS } from '../../src/lists/index.js';
import { textOf } from '../../tools/conversation.js';
import {
  DEFAULTS,
  member,
  MODERATOR_PERMISSIONS,
  nextSnowflake,
  OptionType,
  slashCommand,
  textChannelIdFor,
} from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { post, requestAs, sampleSecrets, sendAs } from '../../tools/list-senders/send.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { startWorld, type World } from '../../tools/world.js';

// One server from .env on every list (issue 34): each list's votes at <WEBHOOK_PATH>/<site id>, beside
// Guilds at <WEBHOOK_PATH>, through the built bot, the Discord stand-in and the list senders.

const GUILD = DEFAULTS.guildId;
const CHANNEL = textChannelIdFor(GUILD);
const SECRETS = sampleSecrets('e2e');
const SITES = LIST_SITE_IDS;
/** A Guilds voter counted at the start, whose vote delivered again is handled and posts nothing. */
const COUNTED = nextSnowflake();

let world: World;
let url: string;
beforeAll(async () => {
  const { url: webhookUrl, ...env } = await receiverEnv({
    VOTE_CHANNEL_ID: CHANNEL,
    REVIEW_CHANNEL_ID: CHANNEL,
    LOG_LEVEL: 'debug',
    ...Object.fromEntries(LIST_SITE_IDS.map((site) => [listingSecretVariable(site), SECRETS[site]])),
  });
  url = webhookUrl;
  world = await startWorld({ env });
  expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, COUNTED))).toBe(200);
  await world.bot.waitForLog((l) => l.msg === 'vote accepted' && l.userId === COUNTED, 10_000, 'the first vote');
}, 30_000);
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

const announcementsOf = (userId: string) =>
  world.discord.channelMessages(CHANNEL).filter((m) => textOf(m).includes(userId));
const accepted = (userId: string) => world.bot.logs.filter((l) => l.msg === 'vote accepted' && l.userId === userId);

/**
 * Every delivery stored before this one handled: the inbox takes them oldest first. It posts
 * nothing (a Guilds vote already counted this period, delivered again), so no lane waits on it.
 */
async function inboxCaughtUp(): Promise<void> {
  const repeats = () =>
    world.bot.logs.filter((l) => l.msg === 'vote already counted this period; delivery ignored' && l.userId === COUNTED)
      .length;
  const before = repeats();
  expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, COUNTED))).toBe(200);
  await world.bot.waitForLog(() => repeats() > before, 10_000, 'a later delivery handled');
}

/** Every vote queued before this one announced: the channel's one lane posts them oldest first (a later one in the same message at best). */
async function laneCaughtUp(): Promise<void> {
  const later = nextSnowflake();
  expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, later))).toBe(200);
  await world.discord.waitUntil(() => announcementsOf(later).length === 1, 10_000, 'a later vote announced');
}

describe.each(SITES)('votes from %s at <WEBHOOK_PATH>/%s', (site) => {
  // Read in each test: the receiver's port is known only once beforeAll ran.
  const address = () => `${url}/${site}`;
  const as = (secret: string, memberId: string, extra: { test?: boolean; now?: number } = {}) =>
    sendAs(site, { url: address(), secret, vote: { guildId: GUILD, memberId, ...extra }, delayScale: 0.001 });

  it('takes an authorized vote once: one announcement, stored with its list; the same vote again is not a second', async () => {
    const voter = nextSnowflake();
    const request = requestAs(site, {
      url: address(),
      secret: SECRETS[site],
      vote: { guildId: GUILD, memberId: voter },
    });
    expect(await post(request)).toBe(200);
    const line = await world.bot.waitForLog((l) => accepted(voter).includes(l), 10_000, 'the vote');
    expect(line.site).toBe(site);
    await world.discord.waitUntil(() => announcementsOf(voter).length === 1, 10_000, 'the announcement');
    expect(textOf(announcementsOf(voter)[0]!)).toContain(`voted on ${SITE_FACTS[site].name}`);
    expect(await post(request)).toBe(200);
    await world.bot.waitForLog(
      (l) => l.msg === 'vote already recorded; delivery ignored' && l.userId === voter,
      10_000,
      'the repeat dropped',
    );
    // Handled as a repeat (logged above), it queued nothing: there is no second vote to announce.
    expect(accepted(voter)).toHaveLength(1);
    expect(announcementsOf(voter)).toHaveLength(1);
  });

  it('refuses a wrong or missing secret with 401 and stores nothing', async () => {
    const voter = nextSnowflake();
    expect((await as(`${SECRETS[site]}-wrong`, voter)).status).toBe(401);
    const unsigned = requestAs(site, {
      url: address(),
      secret: SECRETS[site],
      vote: { guildId: GUILD, memberId: voter },
    });
    const bare = site === 'discadia' ? { ...unsigned, url: address() } : { ...unsigned, headers: {} };
    expect(await post(bare)).toBe(401);
    await inboxCaughtUp();
    expect(world.bot.logs.some((l) => l.userId === voter)).toBe(false);
    expect(announcementsOf(voter)).toEqual([]);
  });

  if (site === 'topgg')
    it('refuses a bad signature and a stale timestamp with 401, storing nothing', async () => {
      const voter = nextSnowflake();
      const signed = requestAs(site, {
        url: address(),
        secret: SECRETS.topgg,
        vote: { guildId: GUILD, memberId: voter },
      });
      expect(await post({ ...signed, body: signed.body.replace(voter, nextSnowflake()) })).toBe(401);
      expect((await as(SECRETS.topgg, voter, { now: Date.now() - 10 * 60_000 })).status).toBe(401);
      await inboxCaughtUp();
      expect(world.bot.logs.some((l) => l.userId === voter)).toBe(false);
      expect(announcementsOf(voter)).toEqual([]);
    });

  if (SITE_FACTS[site].sendsTests)
    it('acknowledges a test delivery and never announces it', async () => {
      const tester = nextSnowflake();
      expect((await as(SECRETS[site], tester, { test: true })).status).toBe(200);
      await world.bot.waitForLog(
        (l) => l.msg === 'test delivery from a list received' && l.site === site,
        10_000,
        'the test',
      );
      await laneCaughtUp();
      expect(accepted(tester)).toEqual([]);
      expect(announcementsOf(tester)).toEqual([]);
    });
});

describe('reviews from discordlist.space', () => {
  it('go to the review feed once, labelled with the list, with a link to the site instead of Reply; and to /reviews pending', async () => {
    const reviewer = nextSnowflake();
    const request = requestAs('discordlistspace', {
      url: `${url}/discordlistspace`,
      secret: SECRETS.discordlistspace,
      vote: { guildId: GUILD, memberId: reviewer, review: { content: 'A lovely place to hang out', rating: 5 } },
    });
    expect(await post(request)).toBe(200);
    const posted = () =>
      world.discord.channelMessages(CHANNEL).filter((m) => textOf(m).includes('A lovely place to hang out'));
    await world.discord.waitUntil(() => posted().length === 1, 10_000, 'the review in the feed');
    const [message] = posted();
    expect(textOf(message!)).toContain('New review on discordlist.space');
    const buttons = (message!.components ?? []).flatMap((row: { components?: unknown[] }) => row.components ?? []);
    expect(buttons).toEqual([
      expect.objectContaining({
        style: 5,
        label: 'Open on discordlist.space',
        url: `https://discordlist.space/server/${GUILD}`,
      }),
    ]);
    expect(await post(request)).toBe(200);
    await world.bot.waitForLog((l) => l.msg === 'review already known; delivery ignored', 10_000, 'the repeat');
    expect(posted()).toHaveLength(1);

    const pending = await world.discord
      .sendInteraction(
        slashCommand({
          name: 'reviews',
          guildId: GUILD,
          member: member({ permissions: MODERATOR_PERMISSIONS }),
          options: [{ name: 'pending', type: OptionType.Subcommand }],
        }),
      )
      .waitForMessage(10_000);
    expect(textOf(pending)).toContain('New review on discordlist.space');
    expect(textOf(pending)).toContain('A lovely place to hang out');
  });

  it('show no stars for a review that gave no rating, where 0/5 would be a verdict never given', async () => {
    const reviewer = nextSnowflake();
    const request = requestAs('discordlistspace', {
      url: `${url}/discordlistspace`,
      secret: SECRETS.discordlistspace,
      vote: { guildId: GUILD, memberId: reviewer, review: { content: 'Unrated but kind words' } },
    });
    expect(await post(request)).toBe(200);
    const posted = () =>
      world.discord.channelMessages(CHANNEL).filter((m) => textOf(m).includes('Unrated but kind words'));
    await world.discord.waitUntil(() => posted().length === 1, 10_000, 'the review in the feed');
    expect(textOf(posted()[0]!)).toContain(`by <@${reviewer}>`);
    expect(textOf(posted()[0]!)).not.toContain('/5');
  });
});

describe('beside Guilds', () => {
  it('still takes Guilds votes at <WEBHOOK_PATH> with WEBHOOK_TOKEN, and 404s a list it is not on', async () => {
    const voter = nextSnowflake();
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter))).toBe(200);
    await world.discord.waitUntil(() => announcementsOf(voter).length === 1, 10_000, 'the Guilds announcement');
    expect(await deliver(`${url}/notalist`, SECRETS.discordplace, {})).toBe(404);
  });

  it('/setup listing names the LISTING_<SITE>_SECRET setting and stores nothing; status shows each test', async () => {
    const setup = (options: Parameters<typeof slashCommand>[0]['options']) =>
      world.discord
        .sendInteraction(
          slashCommand({
            name: 'setup',
            guildId: GUILD,
            member: member({ permissions: MODERATOR_PERMISSIONS }),
            options,
          }),
        )
        .waitForMessage(15_000);
    const add = await setup([
      {
        name: 'listing',
        type: OptionType.SubcommandGroup,
        options: [
          {
            name: 'add',
            type: OptionType.Subcommand,
            options: [{ name: 'site', type: OptionType.String, value: 'topgg' }],
          },
        ],
      },
    ]);
    expect(textOf(add)).toContain('LISTING_TOPGG_SECRET');
    expect(textOf(add)).toContain('/webhook/topgg');
    expect(textOf(add)).toContain('stored nothing');
    const status = textOf(await setup([{ name: 'status', type: OptionType.Subcommand }]));
    for (const name of ['Top.gg', 'discord.place', 'Discollab'])
      expect(status).toMatch(new RegExp(`✔ \\*\\*${name.replace('.', '\\.')} votes\\*\\*: .*test received ✔`));
  });

  it('never writes a listing secret in the log', () => {
    const log = JSON.stringify(world.bot.logs) + world.bot.stderr();
    for (const secret of Object.values(SECRETS)) expect(log).not.toContain(secret);
  });
});
