import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { WEBHOOK_MAX_BODY_BYTES, type Receiver } from '../../src/webhooks/receiver.js';
import { tokenMatches } from '../../src/webhooks/token.js';
import { deliver, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { postChunked } from '../support/chunked-post.js';
import { singleServerReceiver } from '../support/single-server-receiver.js';

const GUILD = '111111111111111111';
const TOKEN = 'a-webhook-token-of-some-length';
const VOTER = '284102390141648897';

let dir: string;
let store: StoreRoot;
let receiver: Receiver;
let stored = 0;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'bot-receiver-'));
  store = await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') });
  receiver = await singleServerReceiver(GUILD, TOKEN, {
    store,
    inbox: { wake: () => (stored += 1) },
  });
});
afterAll(async () => {
  await receiver?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  for (const event of await store.pendingEvents(1_000)) await store.markEventHandled(event.id, Date.now());
  stored = 0;
});

const pending = async () => (await store.pendingEvents(1_000)).map((e) => e.payload);

describe('the webhook receiver', () => {
  it('stores an accepted event before answering 200, then reports it', async () => {
    const body = reviewEvent(GUILD, { id: 'rev_1', authorId: VOTER });
    expect(await deliver(receiver.url, TOKEN, body)).toBe(200);
    expect(await pending()).toEqual([body]);
    expect(stored).toBe(1);
  });

  it('answers 200 to a duplicate and stores it again for the handler to drop', async () => {
    const body = voteEvent(GUILD, VOTER, true);
    expect(await deliver(receiver.url, TOKEN, body)).toBe(200);
    expect(await deliver(receiver.url, TOKEN, body)).toBe(200);
    expect(await pending()).toEqual([body, body]);
  });

  it('answers 401 to a wrong or missing token and stores nothing', async () => {
    const body = reviewEvent(GUILD, { id: 'rev_2', authorId: VOTER });
    expect(await deliver(receiver.url, 'wrong-token', body)).toBe(401);
    expect(await deliver(receiver.url, undefined, body)).toBe(401);
    expect(await deliver(receiver.url, `${TOKEN}x`, body)).toBe(401);
    expect(await pending()).toEqual([]);
    expect(stored).toBe(0);
  });

  it('answers 405 to another method, 404 to another path', async () => {
    expect(await deliver(receiver.url, TOKEN, undefined, { method: 'GET' })).toBe(405);
    expect(await deliver(receiver.url, TOKEN, undefined, { method: 'PUT', raw: '{}' })).toBe(405);
    expect(await deliver(receiver.url.replace('/webhook', '/other'), TOKEN, voteEvent(GUILD, VOTER))).toBe(404);
    expect(await pending()).toEqual([]);
  });

  it('answers 413 to a body over 64 KiB and 400 to malformed JSON, storing neither', async () => {
    const huge = reviewEvent(GUILD, { id: 'rev_3', authorId: VOTER, content: 'x'.repeat(WEBHOOK_MAX_BODY_BYTES) });
    expect(await deliver(receiver.url, TOKEN, huge)).toBe(413);
    expect(await deliver(receiver.url, TOKEN, undefined, { raw: '{"event": "vote",' })).toBe(400);
    expect(await deliver(receiver.url, TOKEN, undefined, { raw: '[1, 2]' })).toBe(400);
    expect(await pending()).toEqual([]);
  });

  it('answers 413 to a chunked body once it passes 64 KiB, without reading the rest', async () => {
    const headers = { authorization: TOKEN, 'content-type': 'application/json' };
    const sent = await postChunked(receiver.url, headers, 64 * WEBHOOK_MAX_BODY_BYTES, 16 * 1024);
    expect(sent.status).toBe(413);
    expect(sent.written).toBeLessThan(64 * WEBHOOK_MAX_BODY_BYTES);
    expect(await pending()).toEqual([]);
  });

  it('answers 200 to unknown event types and 400 to a body for another server, acting on neither', async () => {
    expect(await deliver(receiver.url, TOKEN, { event: 'boost', guildId: GUILD })).toBe(200);
    expect(await deliver(receiver.url, TOKEN, voteEvent('222222222222222222', VOTER))).toBe(400);
    expect(await deliver(receiver.url, TOKEN, { event: 'vote', guildId: GUILD, user: { id: 'not-an-id' } })).toBe(200);
    expect(await pending()).toEqual([]);
    expect(stored).toBe(0);
  });

  it('reads the review id of a reply event under any of the names it may carry', async () => {
    expect(
      await deliver(receiver.url, TOKEN, { event: 'reply', guildId: GUILD, authorId: null, reviewId: 'rev_9' }),
    ).toBe(200);
    expect(await pending()).toEqual([
      { event: 'reply', guildId: GUILD, authorId: null, reviewId: 'rev_9', replyId: undefined },
    ]);
  });
});

describe('the token comparison', () => {
  it('matches only the exact token', () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(TOKEN.slice(0, -1), TOKEN)).toBe(false);
    expect(tokenMatches(undefined, TOKEN)).toBe(false);
    expect(tokenMatches('', TOKEN)).toBe(false);
  });
});
