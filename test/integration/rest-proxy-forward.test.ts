import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { REST } from '@discordjs/rest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forwardRequests, type GoneKind } from '../../src/rest-proxy/forward.js';
import { Pacer } from '../../src/rest-proxy/pacer.js';
import { WireWatch } from '../../src/rest-proxy/wire-watch.js';
import { pollUntil } from '../support/poll-until.js';

// The REST proxy's queue and a caller who leaves: a request Discord answered 429 did nothing there,
// so once its caller has hung up it is not sent again (the caller, or the process after it, asks
// again itself). An upstream on loopback answers the first post 429 (global) and counts what came.

const TOKEN = 'Bot proxy-forward-test-token';
let upstream: Server;
let proxy: Server;
let paced: Server;
let proxyUrl: string;
let pacedUrl: string;
const seen: string[] = [];
const gone: GoneKind[] = [];

/** Counts the turns asked for, so a test knows when a request waits for one. */
class CountingPacer extends Pacer {
  turns = 0;
  override turn(signal?: AbortSignal | null): Promise<void> {
    this.turns += 1;
    return super.turn(signal);
  }
}
const pacer = new CountingPacer(1);

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push(body);
      if (seen.length === 1) {
        const refusal = { message: 'You are being rate limited.', retry_after: 0.3, global: true };
        res.writeHead(429, { 'content-type': 'application/json', 'x-ratelimit-global': 'true', 'retry-after': '1' });
        res.end(JSON.stringify(refusal));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: String(seen.length) }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const api = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api`;
  ({ server: proxy, url: proxyUrl } = await startProxy(api, new WireWatch()));
  // One turn a second: the second of two posts waits for its turn in the proxy.
  ({ server: paced, url: pacedUrl } = await startProxy(api, new WireWatch(pacer)));
});

async function startProxy(api: string, wire: WireWatch): Promise<{ server: Server; url: string }> {
  const rest = new REST({ api, retries: 0, makeRequest: wire.makeRequest });
  const forward = forwardRequests(rest, wire, { refused: () => undefined, gone: (kind) => gone.push(kind) });
  const server = createServer((req, res) => void forward(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v10` };
}

afterAll(async () => {
  const servers = [proxy, paced, upstream];
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

const post = (content: string, signal?: AbortSignal, url = proxyUrl) =>
  fetch(`${url}/channels/100000000000000001/messages`, {
    method: 'POST',
    headers: { authorization: TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
    signal,
  });

describe('the REST proxy forwarding a request', () => {
  it('drops a request that met a 429 once its caller has hung up, instead of sending it again', async () => {
    const hangUp = new AbortController();
    const first = post('first', hangUp.signal).catch(() => 'hung up');
    await pollUntil(() => seen.length === 1, 'the first post answered 429');
    hangUp.abort();
    expect(await first).toBe('hung up');
    await pollUntil(() => gone.length === 1, 'the proxy noting its caller gone');
    expect(gone).toEqual(['before_sending']);
    // A later post goes once the global wait is over: a retry of the first would have gone before it.
    const second = await post('second');
    expect(second.status).toBe(200);
    expect(seen.map((body) => JSON.parse(body).content)).toEqual(['first', 'second']);
  });

  it('drops a request whose caller hung up while it waited for its turn, and the next one goes', async () => {
    const from = seen.length;
    const goneBefore = gone.length;
    expect((await post('third', undefined, pacedUrl)).status).toBe(200);
    const hangUp = new AbortController();
    const waiting = post('fourth', hangUp.signal, pacedUrl).catch(() => 'hung up');
    await pollUntil(() => pacer.turns === 2, 'the fourth post waiting for its turn');
    hangUp.abort();
    expect(await waiting).toBe('hung up');
    await pollUntil(() => gone.length === goneBefore + 1, 'the proxy noting its caller gone');
    expect(gone.at(-1)).toBe('before_sending');
    expect((await post('fifth', undefined, pacedUrl)).status).toBe(200);
    expect(seen.slice(from).map((body) => JSON.parse(body).content)).toEqual(['third', 'fifth']);
  });
});
