import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asMember, buttonIds, moderator, textOf } from '../../tools/conversation.js';
import {
  DEFAULTS,
  member,
  MODERATOR_PERMISSIONS,
  nextSnowflake,
  OptionType,
  slashCommand,
  textChannelIdFor,
  type Message,
} from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { CRITIC, CRITIC_REVIEW, VOTER, VOTER_REVIEW } from '../../tools/seed.js';
import { startWorld, type World } from '../../tools/world.js';
import { temporaryDatabaseUrl } from '../../tools/bot-process.js';
import { pollUntil } from '../support/poll-until.js';
import { deliveriesHandled, storeCount } from '../support/store-reads.js';

const GUILD = DEFAULTS.guildId;
const CHANNEL = textChannelIdFor(GUILD);
const WRONG_TOKEN = 'not-the-webhook-token-0123456789';

afterAll(removeStoreFiles);

/** The review ids an inbox message lists, in order. */
const listed = (message: Message): string[] =>
  buttonIds(message)
    .filter((id) => id.startsWith('review-reply:'))
    .map((id) => id.slice('review-reply:'.length));

describe('the review inbox and the delivery log, through the stand-in', () => {
  let world: World;
  let url: string;
  let databaseUrl: string;
  beforeAll(async () => {
    const { url: webhookUrl, ...env } = await receiverEnv({ REVIEW_CHANNEL_ID: CHANNEL });
    url = webhookUrl;
    databaseUrl = env.DATABASE_URL!;
    world = await startWorld({ env });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('lists unanswered reviews oldest first, 5 a page, to moderators only; replies from it and from Guilds empty it', async () => {
    const others = Array.from({ length: 4 }, () => `rev_${nextSnowflake()}`);
    const ids = [VOTER_REVIEW, CRITIC_REVIEW, ...others];
    const authors = [VOTER, CRITIC, ...others.map(() => nextSnowflake())];
    for (const [i, id] of ids.entries()) {
      expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: authors[i]! }))).toBe(200);
      // Received one after another, so "oldest first" has one answer: the receipt time is in whole
      // ms, and a 200 can come within the same ms as the next delivery's; nothing else to wait for.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await world.discord.waitUntil(
      () => ids.every((id) => world.discord.channelMessages(CHANNEL).some((m) => textOf(m).includes(id))),
      10_000,
      'the feed posts',
    );
    const post = world.discord.channelMessages(CHANNEL).find((m) => textOf(m).includes(others[0]!))!;
    // The feed post says how long the review has waited, as a timestamp each client keeps current.
    expect(textOf(post)).toMatch(/Waiting for a reply\n<t:\d+:R>/);

    const refused = await asMember(world.discord, member()).subcommand('reviews', 'pending').waitForMessage();
    expect(textOf(refused)).toContain('Moderators only');

    const mod = asMember(world.discord, moderator());
    const first = await mod.subcommand('reviews', 'pending').waitForMessage();
    expect(first.flags & 64).toBe(64);
    expect(textOf(first)).toContain('Waiting: 6');
    expect(listed(first)).toEqual(ids.slice(0, 5));
    expect(first.embeds.slice(1).map((e: { author?: { name: string } }) => e.author?.name)).toEqual([
      '#1',
      '#2',
      '#3',
      '#4',
      '#5',
    ]);
    expect(buttonIds(first)).toContain('reviews-page:2');

    const second = await mod.click(first, 'reviews-page:2').waitForMessage();
    expect(listed(second)).toEqual([ids[5]]);
    // A moderator by role (no Manage Server) may page it too.
    const byRole = asMember(world.discord, member({ roles: [world.discord.moderatorRoleId] }));
    expect(listed(await byRole.click(first, 'reviews-page:2').waitForMessage())).toEqual([ids[5]]);

    // A reply from the inbox: the page is drawn again without the review.
    const modal = await mod.click(first, `review-reply:${VOTER_REVIEW}`).waitForModal();
    expect(modal.custom_id).toBe(`review-reply-submit:${VOTER_REVIEW}`);
    const submit = mod.submitReply(first, VOTER_REVIEW, 'Thank you for the kind words!');
    await submit.waitFor((handle) => handle.followUps().length > 0, 10_000);
    const redrawn = submit.message()!;
    expect(listed(redrawn)).toEqual(ids.slice(1, 6));
    expect(textOf(redrawn)).toContain('Waiting: 5');
    expect(textOf(submit.followUps()[0]!)).toContain('Thank you for the kind words!');

    // Replies Guilds reports (posted on its site or through its API) take the rest off the list.
    for (const id of ids.slice(1))
      expect(await deliver(url, WEBHOOK_TOKEN, { event: 'reply', guildId: GUILD, authorId: null, reviewId: id })).toBe(
        200,
      );
    await deliveriesHandled(databaseUrl);
    const last = await mod.subcommand('reviews', 'pending').waitForMessage();
    expect(textOf(last)).toContain('No review waits for a reply.');
    expect(listed(last)).toEqual([]);
  });

  it('shows the last deliveries in /setup status: stored, duplicate and wrong token, and no token or body', async () => {
    const id = `rev_${nextSnowflake()}`;
    const body = reviewEvent(GUILD, { id, authorId: nextSnowflake(), content: 'A secret-looking body text' });
    expect(await deliver(url, WEBHOOK_TOKEN, body)).toBe(200);
    expect(await deliver(url, WEBHOOK_TOKEN, body)).toBe(200);
    expect(await deliver(url, WRONG_TOKEN, body)).toBe(401);
    const admin = member({ permissions: MODERATOR_PERMISSIONS });
    const status = () =>
      world.discord
        .sendInteraction(
          slashCommand({ name: 'setup', member: admin, options: [{ name: 'status', type: OptionType.Subcommand }] }),
        )
        .waitForMessage(10_000);
    // Asked at once: the log is written a second after the deliveries, off the receiver's path, and
    // until then /setup status shows the lines the process holds (no "none recorded yet" under a ✔).
    const seen = await status();
    const log = seen.embeds.find((e: { title?: string }) => e.title === 'Last webhook deliveries')!;
    const lines = (log.description as string).split('\n').filter((line) => /^[✔✘]/.test(line));
    // Newest first: the refused one came last.
    expect(lines[0]).toMatch(/^✘ <t:\d+:R> \(<t:\d+:f>\) · unknown event · refused: wrong token$/);
    expect(lines[1]).toMatch(/· `review` · duplicate/);
    expect(lines[2]).toMatch(/· `review` · stored$/);
    expect(log.description).toContain('/setup webhook');
    const text = textOf(seen);
    for (const secret of [WEBHOOK_TOKEN, WRONG_TOKEN, 'secret-looking', id]) expect(text).not.toContain(secret);
  });
});

describe('the last poll in /setup status', () => {
  let world: World;
  const databaseUrl = temporaryDatabaseUrl();
  beforeAll(async () => {
    // Credentials the service refuses: every poll fails, and the status must say why.
    world = await startWorld({
      env: { VOTE_POLL_SECONDS: '60', SERVICE_API_KEY: 'a-key-the-service-refuses', DATABASE_URL: databaseUrl },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('says when the poll failed and why', async () => {
    await world.bot.waitForLog(
      (line) => line.msg === 'could not poll the active votes; the mirror keeps its last state',
    );
    const admin = member({ permissions: MODERATOR_PERMISSIONS });
    const status = () =>
      world.discord
        .sendInteraction(
          slashCommand({ name: 'setup', member: admin, options: [{ name: 'status', type: OptionType.Subcommand }] }),
        )
        .waitForMessage(10_000);
    // The poll's outcome is written to the store right after that line.
    await pollUntil(
      async () =>
        (await storeCount(
          databaseUrl,
          `SELECT count(*) AS n FROM server_state WHERE key = 'last_poll' AND value LIKE '%"ok":false%'`,
        )) === 1,
      'the failed poll in the store',
      { timeoutMs: 10_000, everyMs: 25 },
    );
    const seen = await status();
    expect(textOf(seen)).toMatch(/✘ \*\*Last vote poll\*\*: failed <t:\d+:R>: the service refused the credentials/);
    expect(textOf(seen)).not.toContain('a-key-the-service-refuses');
  });
});
