import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InteractionResponseType, MessageFlags } from 'discord.js';
import { closedPort } from '../../tools/closed-port.js';
import { moderator, textOf } from '../../tools/conversation.js';
import {
  buttonClick,
  member,
  modalSubmit,
  slashCommand,
  type Message,
  type Signing,
} from '../../tools/discord-standin/index.js';
import { startBot, temporaryDatabaseUrl, type LogLine } from '../../tools/bot-process.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';
import { CRITIC, CRITIC_REVIEW, VOTER } from '../../tools/seed.js';

let world: World;
let url: string;
/** The gateway bot's store, which `npm run interactions` shares. */
const DATABASE_URL = temporaryDatabaseUrl();

beforeAll(async () => {
  world = await startWorld({
    env: { INTERACTIONS_PORT: String(await closedPort()), INTERACTIONS_HOST: '127.0.0.1', DATABASE_URL },
  });
  const listening = await world.bot.waitForLog((line) => line.msg === 'interactions endpoint listening');
  url = String(listening.url);
});
afterAll(async () => {
  await world?.close();
});

const PING = JSON.stringify({ type: 1, id: '1300000000000000001', application_id: '1', token: 'ping', version: 1 });

/** An answer's embeds with its relative timestamps blanked: two answers a moment apart compare equal. */
const shape = (message: Message) => JSON.parse(JSON.stringify(message.embeds).replace(/<t:\d+:/g, '<t:…:'));

describe('npm start with INTERACTIONS_PORT', () => {
  it("answers Discord's signed PING with PONG", async () => {
    const answer = await world.discord.postSigned(url, PING);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body.toString())).toEqual({ type: 1 });
  });

  it.each<[Signing, string]>([
    ['other-key', 'signed with another key'],
    ['none', 'with no signature'],
    ['tampered', 'changed after it was signed'],
    ['old', 'signed 10 minutes ago'],
  ])('answers 401 to a PING %s (%s), and does not act on it', async (signing) => {
    const answer = await world.discord.postSigned(url, PING, signing);
    expect(answer.status).toBe(401);
    expect(answer.body.toString()).not.toContain('"type"');
  });

  it('answers /vote over HTTP in the response itself, with the same embed as over the gateway', async () => {
    const who = member({ id: VOTER });
    const overGateway = await world.discord
      .sendInteraction(slashCommand({ name: 'vote', member: who }))
      .waitForMessage();
    const handle = world.discord.sendInteractionHttp(url, slashCommand({ name: 'vote', member: who }));
    const answer = await handle.answered;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString()).type).toBe(InteractionResponseType.ChannelMessageWithSource);
    const overHttp = await handle.waitForMessage();
    expect(textOf(overHttp)).toContain(`<@${VOTER}>`);
    expect(overHttp.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(shape(overHttp)).toEqual(shape(overGateway));
    expect(handle.rejectedCallbacks).toEqual([]);
  });

  it("opens the Reply button's form over HTTP, and its submit updates the review and follows up", async () => {
    const mod = moderator();
    const options = [{ name: 'member', type: 6, value: CRITIC }];
    const review = await world.discord
      .sendInteractionHttp(url, slashCommand({ name: 'review', member: mod, options }))
      .waitForMessage();
    const click = world.discord.sendInteractionHttp(
      url,
      buttonClick({ customId: `review-reply:${CRITIC_REVIEW}`, message: review, member: mod }),
    );
    const modal = await click.waitForModal();
    expect(JSON.parse((await click.answered).body.toString()).type).toBe(InteractionResponseType.Modal);
    expect(modal.custom_id).toBe(`review-reply-submit:${CRITIC_REVIEW}`);

    const text = `Thanks over HTTP ${Date.now()}`;
    const submit = world.discord.sendInteractionHttp(
      url,
      modalSubmit({
        customId: `review-reply-submit:${CRITIC_REVIEW}`,
        fields: { 'reply-content': text },
        selects: { 'reply-pinned': ['no'] },
        member: mod,
        message: review,
      }),
    );
    const updated = await submit.waitForMessage();
    expect(updated.id).toBe(review.id);
    expect(submit.callbacks[0]?.type).toBe(InteractionResponseType.UpdateMessage);
    expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toEqual([expect.objectContaining({ content: text })]);
    // The confirmation is a follow-up: a REST call with the interaction's token, as over the gateway.
    await submit.waitFor((h) => h.followUps().length === 1);
  });

  it('runs an interaction once: the same signed request sent again after its answer is refused 409, running nothing', async () => {
    const vote = () =>
      world.discord.sendInteractionHttp(url, slashCommand({ name: 'vote', member: member({ id: VOTER }) }));
    const handledLine = (id: string) => (line: LogLine) =>
      line.msg === 'interaction handled' && line.interactionId === id;
    const handle = vote();
    await world.bot.waitForLog(handledLine(handle.id));
    const replayed = await world.discord.replaySigned(url);
    expect(replayed.status).toBe(409);
    expect(replayed.body.toString()).toBe('this interaction was already handled');
    // A later interaction is handled and logged; the replayed one still only once.
    const later = vote();
    await world.bot.waitForLog(handledLine(later.id));
    expect(world.bot.logs.filter(handledLine(handle.id))).toHaveLength(1);
    expect(handle.rejectedCallbacks).toEqual([]);
  });

  it.each([
    ['an unknown type', { type: 42, data: {} }],
    ['no data', { type: 2 }],
    ['no token', { type: 2, data: { name: 'vote' }, token: '' }],
  ])('answers a signed payload with %s 400 at once, without deferring', async (_, spoilt) => {
    const payload = { ...slashCommand({ name: 'vote', member: member({ id: VOTER }) }), ...spoilt } as Record<
      string,
      unknown
    >;
    if (!('data' in spoilt)) delete payload.data;
    // A deferral (200, type 5) would have come 2.5 s later; the refusal is the answer itself.
    const answer = await world.discord.postSigned(url, JSON.stringify(payload));
    expect(answer.status).toBe(400);
    expect(answer.body.toString()).toMatch(/not an interaction/);
  });

  it('refuses a body larger than 1 MiB with 413 and a GET with 405', async () => {
    const big = await fetch(url, { method: 'POST', body: 'x'.repeat(1024 * 1024 + 1) });
    expect(big.status).toBe(413);
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

describe('npm run interactions', () => {
  it('answers /vote over HTTP from the store the gateway bot uses, without ever identifying on the gateway', async () => {
    const identifiesBefore = world.discord.identifies.length;
    const alone = startBot(
      {
        ...botEnvironment(world.discord, world.sandbox),
        DATABASE_URL,
        INTERACTIONS_PORT: String(await closedPort()),
        INTERACTIONS_HOST: '127.0.0.1',
      },
      { script: 'interactions' },
    );
    try {
      const listening = await alone.waitForLog((line) => line.msg === 'interactions endpoint listening', 15_000);
      const handle = world.discord.sendInteractionHttp(
        String(listening.url),
        slashCommand({ name: 'vote', member: member({ id: VOTER }) }),
      );
      expect(JSON.parse((await handle.answered).body.toString()).type).toBe(
        InteractionResponseType.ChannelMessageWithSource,
      );
      expect(textOf(await handle.waitForMessage())).toContain(`<@${VOTER}>`);
      expect(world.discord.identifies.length - identifiesBefore).toBe(0);
      // The gateway bot shares the store: the same signed request sent to it runs nothing there.
      expect((await world.discord.replaySigned(url)).status).toBe(409);
      expect(world.bot.logs.filter((line) => line.interactionId === handle.id)).toEqual([]);
      expect((await alone.stop('SIGTERM')).code).toBe(0);
    } finally {
      await alone.stop('SIGKILL');
    }
  });

  it('stops at start with exit 78 and where to find the key when DISCORD_PUBLIC_KEY is not one', async () => {
    const wrong = startBot(
      {
        ...botEnvironment(world.discord, world.sandbox),
        INTERACTIONS_PORT: String(await closedPort()),
        DISCORD_PUBLIC_KEY: 'not-a-key',
      },
      { script: 'interactions' },
    );
    expect((await wrong.exited).code).toBe(78);
    expect(wrong.stderr()).toMatch(/DISCORD_PUBLIC_KEY must be 64 hex characters.*General Information → Public Key/);
    expect(wrong.stderr()).not.toContain('not-a-key');
  });
});
