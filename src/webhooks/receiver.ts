import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import { readEvent } from './payloads.js';
import { tokenMatches } from './token.js';

/** Guilds' bodies are small; anything larger is refused before it is read in full. */
export const WEBHOOK_MAX_BODY_BYTES = 64 * 1024;

export interface ReceiverOptions {
  host: string | undefined;
  port: number;
  path: string;
  token: string;
  guildId: string;
  store: Store;
  logger: Logger;
  /** Called after an event is stored and answered: handling happens from the store. */
  onStored: () => void;
  now?: () => number;
}

export interface Receiver {
  readonly url: string;
  close(): Promise<void>;
}

class BodyTooLarge extends Error {}

/**
 * Guilds' webhook receiver. An accepted event is in the store before the 200 goes out, so a
 * crash after answering loses nothing; the answer never waits on Discord.
 */
export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const now = options.now ?? Date.now;
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      options.logger.error({ err }, 'webhook delivery could not be stored');
      answer(res, 500, 'could not store the event; retry');
    });
  });
  // Guilds waits 5 s for an answer; a client that trickles its body is cut off well before that.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (url.pathname !== options.path) return answer(res, 404, 'not found');
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return answer(res, 405, 'method not allowed');
    }
    if (!tokenMatches(header(req, 'authorization'), options.token)) {
      options.logger.warn({ remote: req.socket.remoteAddress }, 'webhook delivery with a wrong or missing token');
      return answer(res, 401, 'unauthorized');
    }
    let raw: string;
    try {
      raw = await readBody(req);
    } catch (error) {
      if (error instanceof BodyTooLarge) return answer(res, 413, 'body too large', true);
      throw error;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return answer(res, 400, 'malformed JSON');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return answer(res, 400, 'the body must be a JSON object');

    const read = readEvent(body);
    if (!read.ok) {
      // A 4xx would make Guilds drop it anyway; 200 says "received", the log says why it was ignored.
      options.logger.warn({ problem: read.problem }, 'webhook event ignored');
      return answer(res, 200, 'ignored');
    }
    if (read.event.guildId !== options.guildId) {
      options.logger.warn(
        { guildId: read.event.guildId, event: read.event.event },
        'webhook event for another guild ignored',
      );
      return answer(res, 200, 'ignored');
    }
    const id = await options.store.addEvent(read.event.event, read.event, now());
    answer(res, 200, 'ok');
    options.logger.debug({ eventId: id, event: read.event.event }, 'webhook event stored');
    options.onStored();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${options.path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function answer(res: ServerResponse, status: number, message: string, close = false): void {
  if (res.headersSent) return;
  if (close) res.setHeader('connection', 'close');
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(status === 200 ? { ok: true, message } : { error: message }));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > WEBHOOK_MAX_BODY_BYTES) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > WEBHOOK_MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
