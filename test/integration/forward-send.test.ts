import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RESPONSE_READ_MAX, sendForward } from '../../src/forwarding/send.js';

// One forwarded delivery against real HTTP servers on 127.0.0.1 (issue 51): the status decides, no
// redirect is followed, the answer is read no further than 4 KiB, and the address is judged first.

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
interface Seen {
  headers: IncomingMessage['headers'];
  body: string;
}

let handler: Handler = (_req, res) => res.end();
const seen: Seen[] = [];
let elsewhereHits = 0;
let base = '';
let elsewhere = '';
const servers: http.Server[] = [];

async function listen(onRequest: http.RequestListener): Promise<string> {
  const server = http.createServer(onRequest);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  base = await listen((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ headers: req.headers, body });
      handler(req, res, body);
    });
  });
  elsewhere = await listen((_req, res) => {
    elsewhereHits += 1;
    res.end();
  });
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const SECRET = 'vrf_secret_for_the_send_tests_0123';
const request = (url = `${base}/hook`) => ({
  url,
  secret: SECRET,
  body: '{"type":"vote.create","id":"d-1","data":{}}',
  deliveryId: 'd-1',
  at: 1_800_000_000_500,
});
const local = { allowPrivate: true };

describe('sendForward', () => {
  it('POSTs the body signed, with its delivery id, and a 2xx is delivered', async () => {
    handler = (_req, res) => res.writeHead(204).end();
    const sent = await sendForward(request(), local);
    expect(sent.result).toEqual({ outcome: 'delivered', status: 204 });
    const last = seen.at(-1)!;
    expect(last.body).toBe(request().body);
    expect(last.headers['x-vote-delivery']).toBe('d-1');
    const digest = createHmac('sha256', SECRET).update(`1800000000.${request().body}`).digest('hex');
    expect(last.headers['x-vote-signature']).toBe(`t=1800000000,v1=${digest}`);
    expect(last.headers['content-type']).toBe('application/json');
  });

  it.each([408, 429, 500, 503])('tries a %i again', async (status) => {
    handler = (_req, res) => res.writeHead(status).end();
    expect((await sendForward(request(), local)).result).toEqual({ outcome: 'retrying', status });
  });

  it('honours Retry-After on a 429', async () => {
    handler = (_req, res) => res.writeHead(429, { 'retry-after': '120' }).end();
    expect(await sendForward(request(), local)).toEqual({
      result: { outcome: 'retrying', status: 429 },
      retryAfterMs: 120_000,
    });
  });

  it.each([400, 401, 404, 410])('gives a %i up', async (status) => {
    handler = (_req, res) => res.writeHead(status).end();
    expect((await sendForward(request(), local)).result).toEqual({ outcome: 'gaveUp', status });
  });

  it('does not follow a redirect: a 3xx is given up and the other address never hears of it', async () => {
    handler = (_req, res) => res.writeHead(307, { location: `${elsewhere}/stolen` }).end();
    expect((await sendForward(request(), local)).result).toEqual({ outcome: 'gaveUp', status: 307 });
    // The same server's next request would have come after a followed redirect; none did.
    handler = (_req, res) => res.writeHead(200).end();
    await sendForward(request(), local);
    expect(elsewhereHits).toBe(0);
  });

  it('stops reading an answer past 4 KiB', async () => {
    let written = 0;
    let closed: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => (closed = resolve));
    const total = 64 * 1024 * 1024;
    handler = (_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 120);
      const more = () => {
        while (written < total && res.write(chunk)) written += chunk.length;
        if (written < total) res.once('drain', more);
      };
      res.on('close', () => closed());
      more();
    };
    expect((await sendForward(request(), local)).result).toEqual({ outcome: 'delivered', status: 200 });
    await ended;
    expect(RESPONSE_READ_MAX).toBe(4096);
    expect(written).toBeLessThan(total);
  });

  it('tries again after no answer within the timeout', async () => {
    handler = () => undefined;
    expect((await sendForward(request(), { ...local, timeoutMs: 100 })).result).toEqual({
      outcome: 'retrying',
      reason: 'timeout',
    });
  });

  it('connects to the address it judged, never looking the name up again', async () => {
    handler = (_req, res) => res.writeHead(200).end();
    const port = new URL(base).port;
    const lookups: string[] = [];
    const resolve = async (host: string) => {
      lookups.push(host);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const sent = await sendForward(request(`http://votes.invalid:${port}/hook`), { allowPrivate: true, resolve });
    expect(sent.result).toEqual({ outcome: 'delivered', status: 200 });
    expect(lookups).toEqual(['votes.invalid']);
    expect(seen.at(-1)!.headers.host).toBe(`votes.invalid:${port}`);
  });

  describe('without FORWARD_ALLOW_PRIVATE', () => {
    const strict = (addresses: string[]) => ({
      allowPrivate: false,
      resolve: async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    });

    it('refuses plain http', async () => {
      expect((await sendForward(request(), strict(['93.184.216.34']))).result).toEqual({
        outcome: 'refused',
        reason: 'http',
      });
    });

    it.each([
      ['https://localhost/hook', ['127.0.0.1']],
      ['https://metadata.invalid/latest', ['169.254.169.254']],
      ['https://169.254.169.254/latest', []],
      ['https://[::1]/hook', []],
      ['https://mixed.invalid/hook', ['93.184.216.34', '10.0.0.5']],
    ])('refuses %s (resolving to %j) before connecting', async (url, addresses) => {
      const before = seen.length;
      expect((await sendForward(request(url), strict(addresses))).result).toEqual({
        outcome: 'refused',
        reason: 'private',
      });
      expect(seen.length).toBe(before);
    });

    it('keeps a host that does not resolve for later', async () => {
      const resolve = async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      };
      expect((await sendForward(request('https://gone.invalid/'), { allowPrivate: false, resolve })).result).toEqual({
        outcome: 'refused',
        reason: 'unresolved',
      });
    });
  });
});
