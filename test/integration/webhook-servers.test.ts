import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/core/log.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { startReceiver, type Receiver } from '../../src/webhooks/receiver.js';
import { webhookTargets } from '../../src/webhooks/targets.js';
import { deliver, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';

const A = '111111111111111111';
const B = '222222222222222222';
const UNKNOWN = '333333333333333333';
const TOKENS: Record<string, string> = { [A]: 'server-a-webhook-token-0001', [B]: 'server-b-webhook-token-0002' };
const VOTER = '284102390141648897';

let dir: string;
let root: StoreRoot;
let receiver: Receiver;
const base = () => receiver.url.replace(/\/webhook$/, '');

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'bot-receiver-servers-'));
  root = await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') });
  receiver = await startReceiver({
    host: '127.0.0.1',
    port: 0,
    path: '/webhook',
    targets: webhookTargets({ path: '/webhook', serverToken: (guildId) => TOKENS[guildId] }),
    store: root,
    logger: createLogger('silent'),
    inbox: { wake: () => undefined },
  });
});
afterAll(async () => {
  await receiver?.close();
  await root?.close();
  rmSync(dir, { recursive: true, force: true });
});

const stored = async () => (await root.pendingEvents(1_000)).map((e) => [e.guildId, e.kind]);

describe('the webhook receiver for many servers', () => {
  it("stores a delivery to a server's own address with its own token, for that server", async () => {
    expect(await deliver(`${base()}/webhook/${A}`, TOKENS[A], voteEvent(A, VOTER))).toBe(200);
    expect(await deliver(`${base()}/webhook/${B}`, TOKENS[B], reviewEvent(B, { id: 'rev_b', authorId: VOTER }))).toBe(
      200,
    );
    expect(await stored()).toEqual([
      [A, 'vote'],
      [B, 'review'],
    ]);
  });

  it("refuses another server's token, an unknown server and a body naming another server, storing nothing", async () => {
    const before = await stored();
    expect(await deliver(`${base()}/webhook/${A}`, TOKENS[B], voteEvent(A, VOTER))).toBe(401);
    expect(await deliver(`${base()}/webhook/${UNKNOWN}`, TOKENS[A], voteEvent(UNKNOWN, VOTER))).toBe(401);
    expect(await deliver(`${base()}/webhook/${A}`, TOKENS[A], voteEvent(B, VOTER))).toBe(400);
    // Without single-server mode the plain path serves no one.
    expect(await deliver(`${base()}/webhook`, TOKENS[A], voteEvent(A, VOTER))).toBe(404);
    expect(await deliver(`${base()}/webhook/not-a-server`, TOKENS[A], voteEvent(A, VOTER))).toBe(404);
    expect(await stored()).toEqual(before);
  });

  it('answers an unknown server exactly as a wrong token', async () => {
    const unknown = await fetch(`${base()}/webhook/${UNKNOWN}`, {
      method: 'POST',
      headers: { authorization: TOKENS[A]!, 'content-type': 'application/json' },
      body: '{}',
    });
    const wrong = await fetch(`${base()}/webhook/${A}`, {
      method: 'POST',
      headers: { authorization: 'not-the-token', 'content-type': 'application/json' },
      body: '{}',
    });
    expect([unknown.status, await unknown.text()]).toEqual([wrong.status, await wrong.text()]);
  });
});
