import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { hostInUrl, listen } from '../core/listen.js';
import type { Logger } from '../core/log.js';
import { TallyLog } from '../core/tally-log.js';
import {
  CONNECTIONS_CHECK_MS,
  DEFAULT_MAX_CONNECTIONS,
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
} from '../config/webhook-limits.js';
import type { InlineAnswer } from '../bot/inline-callbacks.js';
import { checkSignature, publicKeyFromHex, type SignatureProblem } from './signature.js';

/** The path Discord posts to: the Interactions Endpoint URL ends with it. */
export const INTERACTIONS_PATH = '/interactions';

/** Discord's interaction payloads are a few KB; anything this large is not one. */
export const INTERACTIONS_MAX_BODY_BYTES = 1024 * 1024;

const PING = 1;

export interface EndpointOptions {
  host: string | undefined;
  port: number;
  /** DISCORD_PUBLIC_KEY: the application's Ed25519 public key, hex. */
  publicKey: string;
  logger: Logger;
  /** Hands a verified interaction (not a PING) to the handlers; resolves with the HTTP answer. */
  deliver: (payload: Record<string, unknown>) => Promise<InlineAnswer>;
  now?: () => number;
  refusalLogIntervalMs?: number;
}

export interface InteractionsEndpoint {
  readonly url: string;
  /** Stops accepting, lets answers under way finish for up to `graceMs`, then closes what is left. */
  close(graceMs?: number): Promise<void>;
}

type Refusal = `signature_${SignatureProblem}` | 'method' | 'not_found' | 'too_large' | 'malformed';

class BodyTooLarge extends Error {}

/**
 * Discord's Interactions Endpoint URL: every request's signature is checked on the raw bytes before
 * anything is parsed (401 otherwise), a PING is answered PONG, and every other interaction goes to
 * the same handlers as over the gateway, its first callback sent back as the response.
 */
export async function startInteractionsEndpoint(options: EndpointOptions): Promise<InteractionsEndpoint> {
  const key = publicKeyFromHex(options.publicKey);
  const now = options.now ?? Date.now;
  // Strangers and Discord's own probes send bad requests on purpose: counted, one line a minute at most.
  const refusals = new TallyLog<Refusal>(options.logger, {
    level: 'warn',
    msg: 'interactions endpoint requests refused',
    intervalMs: options.refusalLogIntervalMs,
  });
  const answering = new Set<Promise<unknown>>();
  const server = createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
    },
    (req, res) => {
      const done = handle(req, res).catch((err: unknown) => {
        options.logger.error({ err }, 'interaction over HTTP failed');
        send(res, 500, 'internal error');
      });
      answering.add(done);
      void done.finally(() => answering.delete(done));
    },
  );
  server.maxConnections = DEFAULT_MAX_CONNECTIONS;

  function refuse(res: ServerResponse, status: number, kind: Refusal, text: string): void {
    refusals.count(kind);
    send(res, status, text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://endpoint').pathname !== INTERACTIONS_PATH)
      return refuse(res, 404, 'not_found', 'not found');
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return refuse(res, 405, 'method', 'method not allowed');
    }
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        res.setHeader('connection', 'close');
        return refuse(res, 413, 'too_large', 'body too large');
      }
      return; // the sender went away: no one to answer
    }
    const check = checkSignature(
      key,
      header(req, 'x-signature-ed25519'),
      header(req, 'x-signature-timestamp'),
      body,
      now(),
    );
    if (!check.ok) return refuse(res, 401, `signature_${check.problem}`, 'invalid request signature');
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      payload = undefined;
    }
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
      return refuse(res, 400, 'malformed', 'the body must be a JSON object');
    const interaction = payload as Record<string, unknown>;
    if (interaction.type === PING)
      return sendJson(res, { body: Buffer.from('{"type":1}'), contentType: 'application/json' });
    sendJson(res, await options.deliver(interaction));
  }

  const address = await listen(server, options.port, options.host, (reason) =>
    reason === 'EADDRINUSE'
      ? `INTERACTIONS_PORT ${options.port} is in use: choose another port or stop what holds it`
      : `could not listen on INTERACTIONS_PORT ${options.port} (${reason}): choose another port or INTERACTIONS_HOST`,
  );
  return {
    url: `http://${hostInUrl(address.address)}:${address.port}${INTERACTIONS_PATH}`,
    async close(graceMs = 0) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...answering]),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
      server.closeAllConnections();
      await closed;
      refusals.close();
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > INTERACTIONS_MAX_BODY_BYTES) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > INTERACTIONS_MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendJson(res: ServerResponse, answer: InlineAnswer): void {
  if (res.headersSent) return;
  res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType, 'content-length': answer.body.length });
  res.end(answer.body);
}
