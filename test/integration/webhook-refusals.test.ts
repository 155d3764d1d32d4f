import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BotMetrics } from '../../src/hosting/metrics.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { startReceiver } from '../../src/webhooks/receiver.js';
import { RefusalLog } from '../../src/webhooks/refusals.js';
import { webhookTargets } from '../../src/webhooks/targets.js';
import { capturedLog } from '../support/captured-log.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { singleServerReceiver } from '../support/single-server-receiver.js';

const GUILD = '111111111111111111';
const TOKEN = 'a-webhook-token-of-some-length';
const VOTER = '284102390141648897';
/** Longer than any test here: summaries come from flush() or close(), never from the clock. */
const NEVER_MS = 3_600_000;

let dir: string;
let store: StoreRoot;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'bot-refusals-'));
  store = await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') });
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function receiverWithLog() {
  const log = capturedLog([TOKEN]);
  const metrics = new BotMetrics();
  const receiver = await singleServerReceiver(GUILD, TOKEN, {
    store,
    logger: log.logger,
    onRefused: (reason) => metrics.webhookRefused(reason),
    refusalLogIntervalMs: NEVER_MS,
  });
  return { ...log, metrics, receiver };
}

/** Requests `count` at a time, so hundreds go out quickly without one connection each. */
async function inParallel(total: number, width: number, send: (i: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  for (let start = 0; start < total; start += width)
    statuses.push(
      ...(await Promise.all(Array.from({ length: Math.min(width, total - start) }, (_, i) => send(start + i)))),
    );
  return statuses;
}

describe('refusals in the log', () => {
  it('logs 600 wrong tokens as the first one at once and one line with the count of the rest at close', async () => {
    const { lines, receiver } = await receiverWithLog();
    const statuses = await inParallel(600, 50, (i) =>
      deliver(receiver.url, i % 2 ? 'a-wrong-token-guess-000000' : undefined, voteEvent(GUILD, VOTER)),
    );
    expect(new Set(statuses)).toEqual(new Set([401]));
    const first = lines.filter((l) => l.msg === 'webhook delivery refused');
    expect(first).toEqual([expect.objectContaining({ reason: 'token', remote: '127.0.0.1' })]);
    expect(String(first[0]!.hint)).toContain('WEBHOOK_TOKEN');

    await receiver.close();
    expect(lines.filter((l) => l.msg === 'webhook deliveries refused')).toEqual([
      expect.objectContaining({ reason: 'token', count: 599 }),
    ]);
    expect(lines.length).toBeLessThanOrEqual(2);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it('keeps one line per reason: path, method, size, JSON, event kind and server each name themselves', async () => {
    const { lines, receiver, metrics } = await receiverWithLog();
    const other = receiver.url.replace('/webhook', '/admin');
    const huge = { ...voteEvent(GUILD, VOTER), pad: 'x'.repeat(70 * 1024) };
    for (let round = 0; round < 3; round++) {
      expect(await deliver(other, TOKEN, voteEvent(GUILD, VOTER))).toBe(404);
      expect(await deliver(receiver.url, TOKEN, undefined, { method: 'GET' })).toBe(405);
      expect(await deliver(receiver.url, TOKEN, huge)).toBe(413);
      expect(await deliver(receiver.url, TOKEN, undefined, { raw: '{"event":' })).toBe(400);
      expect(await deliver(receiver.url, TOKEN, { event: 'boost', guildId: GUILD })).toBe(200);
      expect(await deliver(receiver.url, TOKEN, voteEvent('222222222222222222', VOTER))).toBe(400);
    }
    const reasons = ['not_found', 'method', 'too_large', 'malformed', 'ignored_event', 'other_guild'];
    const immediate = lines.filter((l) => l.msg === 'webhook delivery refused');
    expect(immediate.map((l) => l.reason)).toEqual(reasons);
    expect(immediate.find((l) => l.reason === 'other_guild')).toMatchObject({
      guildId: GUILD,
      bodyGuildId: '222222222222222222',
    });
    expect(immediate.find((l) => l.reason === 'ignored_event')!.problem).toMatch(/unknown event type "boost"/);

    await receiver.close();
    const counted = lines.filter((l) => l.msg === 'webhook deliveries refused');
    expect(Object.fromEntries(counted.map((l) => [l.reason, l.count]))).toEqual(
      Object.fromEntries(reasons.map((r) => [r, 2])),
    );
    const family = parsePrometheusText(await metrics.render(LIVE)).get('vote_review_bot_webhook_refusals_total');
    expect(Object.fromEntries(family!.samples.map((s) => [s.labels.reason, s.value]))).toEqual(
      Object.fromEntries(reasons.map((r) => [r, 3])),
    );
  });
});

describe("a listing's secret in a refused path", () => {
  const SERVER = '333333333333333333';
  const SECRET = 'discadia-secret-the-bot-made-0123456789';
  it('is never logged: a Discadia address with a trailing slash or a segment too many is logged up to the site id', async () => {
    for (const tail of [`${SECRET}/`, `${SECRET}/extra`, `${SECRET}//votes`]) {
      const { logger, lines } = capturedLog();
      const receiver = await startReceiver({
        host: '127.0.0.1',
        port: 0,
        path: '/webhook',
        targets: webhookTargets({
          path: '/webhook',
          serverToken: () => undefined,
          listing: (_guildId, site) => (site === 'discadia' ? { secret: SECRET } : undefined),
        }),
        store,
        logger,
        inbox: { wake: () => undefined },
        refusalLogIntervalMs: NEVER_MS,
      });
      const address = `${receiver.url}/${SERVER}/discadia/${tail}`;
      expect(await deliver(address, undefined, { user_id: VOTER, guild_id: SERVER })).toBe(404);
      await receiver.close();
      const refused = lines.find((l) => l.msg === 'webhook delivery refused');
      expect(refused).toMatchObject({ reason: 'not_found', path: `/webhook/${SERVER}/discadia/...` });
      expect(JSON.stringify(lines)).not.toContain(SECRET);
    }
  });
});

const LIVE = { ready: true, inFlight: 0, gatewayPingMs: 1, gatewayConnected: true };

describe('the refusal log', () => {
  it('logs a reason at once again after a quiet interval, and counts it while it keeps coming', () => {
    const { logger, lines } = capturedLog();
    const log = new RefusalLog(logger, { intervalMs: NEVER_MS });
    const said = () => lines.map((l) => `${l.msg}:${String(l.reason)}:${String(l.count ?? '')}`);
    log.refuse('token');
    log.refuse('token');
    log.flush(); // end of an interval in which tokens came
    log.refuse('token');
    log.flush(); // and another
    log.flush(); // a quiet one
    log.refuse('token');
    log.close();
    expect(said()).toEqual([
      'webhook delivery refused:token:',
      'webhook deliveries refused:token:1',
      'webhook deliveries refused:token:1',
      'webhook delivery refused:token:',
    ]);
  });

  it('logs a stalled store at error level, and the rest at warn', () => {
    const { logger, lines } = capturedLog();
    const log = new RefusalLog(logger, { intervalMs: NEVER_MS });
    log.refuse('store_unavailable');
    log.refuse('timeout');
    log.close();
    expect(lines.map((l) => [l.reason, l.level])).toEqual([
      ['store_unavailable', 50],
      ['timeout', 40],
    ]);
  });
});
