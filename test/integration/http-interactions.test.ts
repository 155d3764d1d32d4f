import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Client, Events, InteractionResponseType, type Interaction } from 'discord.js';
import { InlineCallbacks } from '../../src/bot/inline-callbacks.js';
import { onCallbackAnswered, replyPlain } from '../../src/bot/reply-fast.js';
import { replyInTime } from '../../src/bot/respond.js';
import { deliverTo } from '../../src/http-interactions/deliver.js';
import { startInteractionsEndpoint, type InteractionsEndpoint } from '../../src/http-interactions/endpoint.js';
import {
  buttonClick,
  member,
  slashCommand,
  snowflakeAt,
  startDiscordStandIn,
  type DiscordStandIn,
  type InteractionPayload,
} from '../../tools/discord-standin/index.js';
import { capturedLog, type LogLine } from '../support/captured-log.js';

let discord: DiscordStandIn;
let client: Client;
let endpoint: InteractionsEndpoint;
let lines: LogLine[];
let handler: (interaction: Interaction) => Promise<void>;

beforeAll(async () => {
  discord = await startDiscordStandIn();
  const inline = new InlineCallbacks();
  // A client that never logs in: the endpoint hands it interactions as the gateway would.
  client = new Client({ intents: [], rest: { api: discord.apiUrl, makeRequest: inline.makeRequest } });
  inline.attach(client);
  client.rest.setToken(discord.token);
  client.on(Events.InteractionCreate, (interaction) => void handler(interaction));
  const log = capturedLog();
  lines = log.lines;
  endpoint = await startInteractionsEndpoint({
    host: '127.0.0.1',
    port: 0,
    publicKey: discord.publicKeyHex,
    logger: log.logger,
    deliver: deliverTo(client, inline),
  });
});
afterAll(async () => {
  await endpoint?.close();
  await client?.destroy();
  await discord?.close();
});
beforeEach(() => {
  lines.length = 0;
});

/** A payload Discord made 2.4 s ago: the endpoint's own deadline is a moment away. */
function aged<T extends InteractionPayload>(payload: T): T {
  payload.id = snowflakeAt(new Date(Date.now() - 2_400).toISOString());
  return payload;
}

const typeOf = async (handle: { answered: Promise<{ body: Buffer }> }) =>
  (JSON.parse((await handle.answered).body.toString()) as { type: number }).type;

describe('interactions over HTTP', () => {
  it("answers a plain reply in the HTTP response, through reply-fast's path too", async () => {
    const told: [string, number, boolean][] = [];
    onCallbackAnswered(client, (...answer) => told.push(answer));
    handler = async (interaction) => {
      if (interaction.isChatInputCommand())
        await replyInTime(interaction, Promise.resolve({ content: 'inline' }), { ephemeral: true });
    };
    const handle = discord.sendInteractionHttp(endpoint.url, slashCommand({ name: 'vote', member: member() }));
    expect(await typeOf(handle)).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect((await handle.waitForMessage()).content).toBe('inline');
    expect(discord.requests.filter((r) => r.path.includes('/callback'))).toEqual([]);
    // Handed to the response at once, not through REST's queue: still told as an answered callback (metrics).
    expect(told).toEqual([[handle.id, InteractionResponseType.ChannelMessageWithSource, true]]);
  });

  it("turns reply-fast's plain answer made after the endpoint's deferral into an edit of it", async () => {
    let deferral!: Promise<unknown>;
    handler = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      // Late for certain: the handler answers once the endpoint's own answer has gone.
      await deferral;
      await replyPlain(interaction, { content: 'late plain answer' }, undefined);
    };
    const handle = discord.sendInteractionHttp(endpoint.url, aged(slashCommand({ name: 'vote', member: member() })));
    deferral = handle.answered;
    expect(await typeOf(handle)).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    await handle.waitFor((h) => h.message()?.content === 'late plain answer');
    expect(handle.rejectedCallbacks).toEqual([]);
  });

  it('defers a command whose handler has not answered by the deadline, and turns its late reply into an edit', async () => {
    let deferral!: Promise<unknown>;
    handler = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      // Late for certain: the handler answers once the endpoint's own answer has gone.
      await deferral;
      await interaction.reply({ content: 'late but shown' });
    };
    const handle = discord.sendInteractionHttp(endpoint.url, aged(slashCommand({ name: 'vote', member: member() })));
    deferral = handle.answered;
    expect(await typeOf(handle)).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    await handle.waitFor((h) => h.message()?.content === 'late but shown');
    expect(handle.rejectedCallbacks).toEqual([]);
  });

  it("defers a button's update the same way, leaving its message until the late update edits it", async () => {
    let deferral!: Promise<unknown>;
    handler = async (interaction) => {
      if (interaction.isChatInputCommand()) return void (await interaction.reply({ content: 'page 1' }));
      if (!interaction.isButton()) return;
      // Late for certain: the handler answers once the endpoint's own answer has gone.
      await deferral;
      await interaction.update({ content: 'page 2' });
    };
    const message = await discord
      .sendInteractionHttp(endpoint.url, slashCommand({ name: 'votes', member: member() }))
      .waitForMessage();
    const click = discord.sendInteractionHttp(
      endpoint.url,
      aged(buttonClick({ customId: 'votes-page:2', member: member(), message })),
    );
    deferral = click.answered;
    expect(await typeOf(click)).toBe(InteractionResponseType.DeferredMessageUpdate);
    await click.waitFor((h) => h.message()?.content === 'page 2');
    expect(click.rejectedCallbacks).toEqual([]);
  });

  it('runs the handler once when the same interaction is sent again while it is being answered', async () => {
    let runs = 0;
    let running!: () => void;
    const started = new Promise<void>((resolve) => (running = resolve));
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    handler = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      runs += 1;
      running();
      // Still being answered until the copy has had its answer.
      await held;
      await interaction.reply({ content: 'once' });
    };
    const body = JSON.stringify(slashCommand({ name: 'vote', member: member() }));
    const first = discord.postSigned(endpoint.url, body);
    await started;
    const again = await discord.postSigned(endpoint.url, body);
    letGo();
    expect((await first).status).toBe(200);
    expect(again.status).toBe(409);
    expect(runs).toBe(1);
  });

  it('answers its own path, with or without a query, and refuses any other with 404', async () => {
    const ping = JSON.stringify({ type: 1 });
    expect((await discord.postSigned(`${endpoint.url}?from=discord`, ping)).status).toBe(200);
    expect((await discord.postSigned(endpoint.url.replace(/\/interactions$/, '/other'), ping)).status).toBe(404);
    expect((await discord.postSigned(`${endpoint.url}/more`, ping)).status).toBe(404);
  });

  it('logs refused requests as one counted line, never one per request', async () => {
    const ping = JSON.stringify({ type: 1 });
    for (const signing of ['other-key', 'none', 'tampered', 'old'] as const)
      expect((await discord.postSigned(endpoint.url, ping, signing)).status).toBe(401);
    const refusals = lines.filter((line) => line.msg === 'interactions endpoint requests refused');
    expect(refusals.length).toBeLessThanOrEqual(1);
    expect(JSON.stringify(lines)).not.toContain('"type":1');
  });
});
