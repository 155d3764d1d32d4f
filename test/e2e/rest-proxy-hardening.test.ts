import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { request, type OutgoingHttpHeaders } from 'node:http';
import { startBot, type BotProcess, type LogLine } from '../../tools/bot-process.js';
import { closedPort } from '../../tools/closed-port.js';
import { postChunked } from '../support/chunked-post.js';
import { startRecordingUpstream, type RecordingUpstream } from '../support/recording-upstream.js';

/*
 * Issue 33, items 2 to 5: the REST proxy (npm run rest-proxy, the built process) in front of a
 * recording upstream. It forwards only what a bot sends Discord, no body over Discord's limit,
 * nothing whose caller has hung up while it waited, and its own pacing is not a warning.
 */
const MiB = 1024 * 1024;
const TOKEN = 'Bot not-a-real-token.abc';
const SLOW_CHANNEL = '400000000000000001';
const LIMITED_CHANNEL = '400000000000000002';
const PER_SECOND = 20;

let upstream: RecordingUpstream;
let proxy: BotProcess;
let port: number;
let refused429 = false;

beforeAll(async () => {
  upstream = await startRecordingUpstream((req) => {
    if (req.url?.includes(SLOW_CHANNEL)) return { delayMs: 1_000, body: { id: '1' } };
    // Discord's global 429, once, then the request again succeeds.
    if (req.url?.includes(LIMITED_CHANNEL) && !refused429) {
      refused429 = true;
      const headers = { 'retry-after': '0.3', 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' };
      return { status: 429, headers, body: { message: 'You are being rate limited.', retry_after: 0.3, global: true } };
    }
    return {};
  });
  port = await closedPort();
  proxy = startBot(
    {
      REST_PROXY_PORT: String(port),
      REST_PROXY_UPSTREAM: upstream.url,
      REST_PROXY_REQUESTS_PER_SECOND: String(PER_SECOND),
      LOG_LEVEL: 'info',
    },
    { script: 'rest-proxy' },
  );
  await proxy.waitForLog((line) => line.msg === 'REST proxy listening', 15_000, 'the proxy');
}, 30_000);
// Each test counts only what reaches the upstream while it runs.
beforeEach(() => {
  upstream.requests.length = 0;
});
afterAll(async () => {
  await proxy?.stop('SIGKILL');
  await upstream?.close();
});

interface Answered {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function send(method: string, path: string, headers: OutgoingHttpHeaders, body?: string): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

const sendChunked = (path: string, upTo: number) =>
  postChunked(
    `http://127.0.0.1:${port}${path}`,
    { authorization: TOKEN, 'content-type': 'application/octet-stream' },
    upTo,
    MiB,
  );

const since = (from: number) => proxy.logs.slice(from);
// A line is written at once but read from the child's stdout a moment later.
const lineSince = (from: number, msg: string) =>
  proxy.waitForLog((line) => line.msg === msg && proxy.logs.indexOf(line) >= from, 5_000, msg);
const atLeastWarn = (lines: LogLine[]) => lines.filter((line) => Number(line.level) >= 40);
const until = async (check: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    // Polling: the recording upstream keeps a list and tells no one when it grows; 20 ms reads.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('the REST proxy forwards only what a bot sends Discord', () => {
  it("answers 413 at once to a content-length over Discord's 25 MiB, reading and forwarding nothing", async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v10/channels/1/messages',
        headers: { authorization: TOKEN, 'content-type': 'application/json', 'content-length': String(64 * MiB) },
      });
      req.once('response', (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.once('error', reject);
      // A first 64 KiB of the 64 MiB declared: the answer comes without the rest.
      req.write(Buffer.alloc(64 * 1024, 1));
    });
    expect(answer).toBe(413);
    expect(upstream.requests).toEqual([]);
  });

  it('stops reading a chunked body at the limit, answers 413 and cuts the connection, forwarding nothing', async () => {
    const { status, written } = await sendChunked('/api/v10/channels/1/messages', 128 * MiB);
    expect(status).toBe(413);
    // Read whole, all 128 MiB would have gone; cut off, the limit and what the sockets buffer.
    expect(written).toBeLessThan(64 * MiB);
    expect(upstream.requests).toEqual([]);
  }, 30_000);

  it('gives every one of several callers refused at once its 413, none a reset in its place', async () => {
    // Closed with their bodies unread, one in 25 of these read a reset before the answer, on a busy machine.
    const statuses: number[] = [];
    for (let round = 0; round < 6; round++) {
      const sent = await Promise.all([0, 1, 2, 3].map(() => sendChunked('/api/v10/channels/1/messages', 128 * MiB)));
      statuses.push(...sent.map((one) => one.status));
    }
    expect(statuses).toEqual(Array.from({ length: 24 }, () => 413));
    expect(upstream.requests).toEqual([]);
  }, 60_000);

  it.each([
    ['an OAuth2 path', 'GET', '/oauth2/authorize?client_id=1', TOKEN, 404],
    ['API v9', 'GET', '/api/v9/gateway/bot', TOKEN, 404],
    ['the bare /api', 'GET', '/api/v10', TOKEN, 404],
    ['a path that climbs out of /api', 'GET', '/api/v10/../../oauth2/token', TOKEN, 404],
    // First of its kind, so it is the example the refusal line keeps.
    ["TRACE to an interaction's webhook", 'TRACE', '/api/v10/webhooks/2/interaction-token-xyz', undefined, 405],
    ['TRACE', 'TRACE', '/api/v10/gateway/bot', TOKEN, 405],
    ['PROPFIND', 'PROPFIND', '/api/v10/channels/1', TOKEN, 405],
    ['no Authorization', 'GET', '/api/v10/gateway/bot', undefined, 401],
    ['a Bearer token', 'GET', '/api/v10/users/@me', 'Bearer abc', 401],
    ['a Bearer token on an interaction callback', 'POST', '/api/v10/interactions/1/tok/callback', 'Bearer abc', 401],
    ['no Authorization on a route with no token in it', 'POST', '/api/v10/interactions/1/callback', undefined, 401],
  ])('refuses %s with a 4xx and a JSON message, forwarding nothing', async (_what, method, path, auth, status) => {
    const answer = await send(method, path, auth === undefined ? {} : { authorization: auth });
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/json');
    expect((JSON.parse(answer.body) as { message: string }).message).toMatch(/the REST proxy forwards only/);
    expect(upstream.requests).toEqual([]);
  });

  // discord.js answers interactions with no Authorization: the token in the path is the credential.
  it("forwards an interaction's callback and its webhook with no Authorization", async () => {
    expect((await send('POST', '/api/v10/interactions/1/tok/callback', {})).status).toBe(200);
    expect((await send('PATCH', '/api/v10/webhooks/2/tok/messages/@original', {})).status).toBe(200);
    expect(upstream.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v10/interactions/1/tok/callback',
      'PATCH /api/v10/webhooks/2/tok/messages/@original',
    ]);
  });

  it('forwards /api/… and /api/v10/… with a bot token, as /v10/…', async () => {
    expect((await send('GET', '/api/v10/gateway/bot', { authorization: TOKEN })).status).toBe(200);
    expect((await send('GET', '/api/users/@me', { authorization: TOKEN })).status).toBe(200);
    expect(upstream.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v10/gateway/bot',
      'GET /api/v10/users/@me',
    ]);
  });

  it('logs the refusals in aggregate: the first at once, the rest counted, never a line each', async () => {
    await lineSince(0, 'REST proxy refused requests');
    const lines = proxy.logs.filter((line) => line.msg === 'REST proxy refused requests');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, counts: { too_large: 1 } });
    // The Bearer token never reaches the log.
    expect(JSON.stringify(proxy.logs)).not.toContain('Bearer abc');
  });
});

describe('callers that hang up', () => {
  it('are not sent for when they wait in the queue: of 12 POSTs with 9 hung up, the 3 kept and the one in flight reach Discord', async () => {
    const from = proxy.logs.length;
    const path = `/api/v10/channels/${SLOW_CHANNEL}/messages`;
    const callers = Array.from({ length: 12 }, (_, i) => {
      const controller = new AbortController();
      const answer = fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ content: `post ${i}` }),
        signal: controller.signal,
      });
      return { content: `post ${i}`, controller, answer };
    });
    // The first is on the wire (the upstream takes a second over each); the other eleven wait in the channel's queue.
    await until(() => upstream.requests.length === 1, 5_000, 'the first POST upstream');
    await until(() => upstream.requests[0]!.body !== '', 1_000, 'its body');
    const inFlight = callers.find((c) => upstream.requests[0]!.body.includes(`"${c.content}"`))!;
    const queued = callers.filter((c) => c !== inFlight);
    const kept = queued.slice(0, 3);
    const gone = [inFlight, ...queued.slice(3)];
    expect(gone).toHaveLength(9);
    for (const caller of gone) caller.controller.abort();
    for (const caller of gone) await expect(caller.answer).rejects.toThrow();

    const answers = await Promise.all(kept.map((c) => c.answer));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    // One more POST to the channel queues behind whatever is left there: had the hung-up ones stayed
    // in the queue, they would reach Discord before it does.
    const last = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { authorization: TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'the last post' }),
    });
    expect(last.status).toBe(200);
    const reached = upstream.requests.map((r) => (JSON.parse(r.body) as { content: string }).content);
    expect(reached.sort()).toEqual([...[inFlight, ...kept].map((c) => c.content), 'the last post'].sort());
    // The one on the wire was left to finish: Discord had it already.
    expect(upstream.requests.every((r) => r.answered && !r.cancelled)).toBe(true);
    // Counted in one info line, no error for a caller that went away.
    expect(atLeastWarn(since(from))).toEqual([]);
    expect(since(from).filter((l) => l.msg === 'REST proxy callers hung up before their answer')).toHaveLength(1);
  }, 30_000);
});

describe("Discord's rate limits in the proxy's log", () => {
  it(`counts its own pacing in one info line: 100 requests at ${PER_SECOND} a second write at most 3 warnings`, async () => {
    const from = proxy.logs.length;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        send('GET', `/api/v10/channels/${500 + i}/messages/1`, { authorization: TOKEN }),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(atLeastWarn(since(from)).length).toBeLessThanOrEqual(3);
    expect(upstream.requests.filter((r) => r.method === 'GET')).toHaveLength(100);
    await lineSince(from, 'discord pacing: requests waited');
    const pacing = since(from).filter((l) => l.msg === 'discord pacing: requests waited');
    expect(pacing).toHaveLength(1);
    expect(pacing[0]).toMatchObject({ level: 30, counts: { global: 1 } });
  }, 30_000);

  it('warns on a 429 from Discord, once, and sends the request again after Retry-After', async () => {
    const from = proxy.logs.length;
    const answer = await send(
      'POST',
      `/api/v10/channels/${LIMITED_CHANNEL}/messages`,
      {
        authorization: TOKEN,
        'content-type': 'application/json',
      },
      JSON.stringify({ content: 'hi' }),
    );
    expect(answer.status).toBe(200);
    expect(upstream.requests).toHaveLength(2);
    await lineSince(from, 'discord rate limit: Discord answered 429');
    const warnings = atLeastWarn(since(from));
    expect(warnings).toEqual([
      expect.objectContaining({ msg: 'discord rate limit: Discord answered 429', global: true, retryAfterMs: 300 }),
    ]);
  });

  it('writes what it counted when it stops', async () => {
    const exit = await proxy.stop('SIGTERM');
    expect(exit.code).toBe(0);
    const last = (msg: string) => proxy.logs.filter((l) => l.msg === msg).at(-1);
    expect(last('REST proxy refused requests')).toMatchObject({
      counts: { path: 4, method: 3, authorization: 4 },
      examples: { method: 'TRACE /api/v10/webhooks/2/[redacted]' },
    });
    // A token in a path is a credential: the log's own rule (core/log.ts) keeps it out.
    expect(JSON.stringify(proxy.logs)).not.toContain('interaction-token-xyz');
    expect(last('discord pacing: requests waited')).toMatchObject({ level: 30 });
  });
});
