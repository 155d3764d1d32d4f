import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a forwarding destination received, and what it answered. */
export interface Received {
  deliveryId: string;
  signature: string;
  rawBody: string;
  body: { type: string; id: string; data: Record<string, unknown> };
  /** The signature checked as a receiving bot would (`verifySignature`). */
  signed: boolean;
  answered: number;
}

export interface ForwardDestination {
  readonly url: string;
  readonly received: Received[];
  /**
   * What the next requests are answered with: a status, or a status and headers; `hold` answers
   * nothing (the send stays in flight until the sender gives up or dies), recorded as status 0.
   */
  answer: (received: Omit<Received, 'answered'>) => { status: number; headers?: Record<string, string> } | 'hold';
  /** Resolves once `predicate` holds over what was received (checked at every request). */
  waitUntil(predicate: (received: Received[]) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * `x-vote-signature` checked the way docs/forwarding-and-api.md tells a receiving bot to: `t=<unix
 * seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` under the secret, within five minutes of now.
 */
export function verifySignature(header: string, rawBody: string, secret: string, now = Date.now()): boolean {
  const fields = new Map(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = fields.get('t') ?? '';
  const v1 = fields.get('v1') ?? '';
  if (!/^\d+$/.test(t) || Math.abs(now / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A place votes are forwarded to, on 127.0.0.1: it keeps (and `onReceive` may print) every request,
 * checks its signature with `secret`, and answers 200 unless told otherwise. For the e2e tests and
 * `npm run playground`.
 */
export async function startForwardDestination(options: {
  secret: string;
  port?: number;
  onReceive?: (received: Received) => void;
}): Promise<ForwardDestination> {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const destination: ForwardDestination = {
    url: '',
    received,
    answer: () => ({ status: 200 }),
    waitUntil: (predicate, timeoutMs = 15_000, what = 'a forwarded delivery') =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; received ${received.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    let rawBody = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (rawBody += chunk));
    req.on('end', () => {
      const signature = String(req.headers['x-vote-signature'] ?? '');
      const seen = {
        deliveryId: String(req.headers['x-vote-delivery'] ?? ''),
        signature,
        rawBody,
        body: JSON.parse(rawBody || '{}') as Received['body'],
        signed: verifySignature(signature, rawBody, options.secret),
      };
      const answer = destination.answer(seen);
      const entry = { ...seen, answered: answer === 'hold' ? 0 : answer.status };
      received.push(entry);
      options.onReceive?.(entry);
      if (answer !== 'hold') res.writeHead(answer.status, answer.headers).end();
      for (const wake of [...waiters]) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(destination, { url: `http://127.0.0.1:${port}/votes` });
}
