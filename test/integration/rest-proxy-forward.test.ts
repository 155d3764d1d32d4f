import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { REST } from '@discordjs/rest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forwardRequests, type GoneKind } from '../../src/rest-proxy/forward.js';
import { WireWatch } from '../../src/rest-proxy/wire-watch.js';
import { pollUntil } from '../support/poll-until.js';

// The REST proxy's queue and a caller who leaves: a request Discord answered 429 did nothing there,
// so once its caller has hung up it is not sent again (the caller, or the process after it, asks
// again itself). An upstream on loopback answers the first post 429 (global) and counts what came.

const TOKEN = 'Bot proxy-forward-test-token';
let upstream: Server;
let proxy: Server;
let proxyUrl: string;
const seen: string[] = [];
const gone: GoneKind[] = [];

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
  const wire = new WireWatch();
  const api = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api`;
  const rest = new REST({ api, retries: 0, makeRequest: wire.makeRequest });
  const forward = forwardRequests(rest, wire, { refused: () => undefined, gone: (kind) => gone.push(kind) });
  proxy = createServer((req, res) => void forward(req, res));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v10`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  upstream.closeAllConnections();
  await Promise.all([proxy, upstream].map((server) => new Promise((resolve) => server.close(resolve))));
});

const post = (content: string, signal?: AbortSignal) =>
  fetch(`${proxyUrl}/channels/100000000000000001/messages`, {
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
});
