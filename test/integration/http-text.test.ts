import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BodyTooLarge, CONNECTIONS_PER_ORIGIN, RequestTimedOut, requestText } from '../../src/core/http-text.js';
import { pollUntil } from '../support/poll-until.js';

type Route = (req: IncomingMessage, res: ServerResponse) => void;

const routes: Record<string, Route> = {
  '/echo': (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.setHeader('X-Method', req.method ?? '');
      res.end(`got ${body} for ${req.url}`);
    });
  },
  '/declared-large': (_req, res) => {
    res.setHeader('Content-Length', '100000');
    res.write('x'.repeat(10));
  },
  '/streamed-large': (_req, res) => {
    res.statusCode = 502;
    const chunk = 'y'.repeat(1000);
    for (let i = 0; i < 20; i += 1) res.write(chunk);
    res.end();
  },
  '/never': () => undefined,
  '/stalled-body': (_req, res) => {
    res.writeHead(200, { 'Content-Length': '100' });
    res.write('the first ten bytes');
  },
  '/broken-body': (req, res) => {
    res.writeHead(201, { 'Content-Length': '100' });
    res.write('partial', () => req.socket.destroy());
  },
};

let server: Server;
let base: string;
/** Resolved by the next request the server receives. */
const arrivals: Array<() => void> = [];
const nextArrival = () => new Promise<void>((resolve) => arrivals.push(resolve));

beforeAll(async () => {
  server = createServer((req, res) => {
    for (const arrived of arrivals.splice(0)) arrived();
    (routes[(req.url ?? '').split('?')[0]!] ?? routes['/never']!)(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const plain = { method: 'GET' as const, headers: {}, maxBytes: 1024 };

describe('requestText', () => {
  it('returns the status, the headers by lower-case name (a repeated one as a list) and the body', async () => {
    const response = await requestText(`${base}/echo?q=1`, { ...plain, method: 'POST', body: 'hello' });
    expect(response.status).toBe(200);
    expect(response.headers['x-method']).toBe('POST');
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(response.text).toBe('got hello for /echo?q=1');
  });

  it('refuses a body that says it is over the cap, and one that grows past it, with the status', async () => {
    await expect(requestText(`${base}/declared-large`, plain)).rejects.toEqual(new BodyTooLarge(200));
    const error = await requestText(`${base}/streamed-large`, plain).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLarge);
    expect((error as BodyTooLarge).status).toBe(502);
  });

  it('ends with the reason its signal is aborted with, before or while the request is out', async () => {
    const before = new AbortController();
    before.abort(new Error('gone before'));
    await expect(requestText(`${base}/echo`, { ...plain, signal: before.signal })).rejects.toThrow('gone before');
    const during = new AbortController();
    const out = nextArrival();
    const pending = requestText(`${base}/never`, { ...plain, signal: during.signal });
    await out;
    during.abort(new Error('gone while waiting'));
    await expect(pending).rejects.toThrow('gone while waiting');
  });

  it('ends with RequestTimedOut when the whole response is not in within timeoutMs, headers or body', async () => {
    for (const path of ['/never', '/stalled-body']) {
      let told = 0;
      const started = performance.now();
      const error = await requestText(`${base}${path}`, {
        ...plain,
        timeoutMs: 150,
        onStatus: (status) => (told = status),
      }).catch((e: unknown) => e);
      expect(error).toEqual(new RequestTimedOut(150));
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      expect(told).toBe(path === '/never' ? 0 : 200);
    }
    // A caller's abort still wins over the bound, with its own reason.
    const caller = new AbortController();
    const out = nextArrival();
    const pending = requestText(`${base}/never`, { ...plain, signal: caller.signal, timeoutMs: 5_000 });
    await out;
    caller.abort(new Error('caller left'));
    await expect(pending).rejects.toThrow('caller left');
  });

  it('tells the status once the headers are in, even when the body then fails', async () => {
    let told = 0;
    await expect(
      requestText(`${base}/broken-body`, { ...plain, onStatus: (status) => (told = status) }),
    ).rejects.toThrow();
    expect(told).toBe(201);
  });

  it('opens at most CONNECTIONS_PER_ORIGIN connections to one origin: the requests past them wait their turn', async () => {
    const held: ServerResponse[] = [];
    let connections = 0;
    let holding = true;
    let queuedSent = 0;
    const busy = createServer((req, res) => {
      if (req.url === '/queued') queuedSent += 1;
      return holding ? held.push(res) : res.end('ok');
    });
    busy.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(busy.address() as AddressInfo).port}`;
    try {
      const total = CONNECTIONS_PER_ORIGIN + 44;
      const answers = Array.from({ length: total }, (_, i) => requestText(`${origin}/slow/${i}`, plain));
      await pollUntil(() => held.length >= CONNECTIONS_PER_ORIGIN, 'every connection busy', { everyMs: 10 });
      // Every connection is busy: the rest wait for one instead of opening their own. (Had they opened
      // their own, `connections` below, counted once every request is answered, would say so.)
      expect(held).toHaveLength(CONNECTIONS_PER_ORIGIN);
      // One that waits for a connection still ends when its signal is aborted, and is never sent
      // (requestText queues it on the pool before it returns).
      const deadline = new AbortController();
      const queued = requestText(`${origin}/queued`, { ...plain, signal: deadline.signal });
      deadline.abort(new Error('deadline while queued'));
      await expect(queued).rejects.toThrow('deadline while queued');
      holding = false;
      for (const res of held) res.end('ok');
      expect((await Promise.all(answers)).filter((answer) => answer.text === 'ok')).toHaveLength(total);
      expect(connections).toBe(CONNECTIONS_PER_ORIGIN);
      expect(queuedSent).toBe(0);
    } finally {
      busy.closeAllConnections();
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
