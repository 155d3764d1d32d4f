import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { hostInUrl, listen } from '../core/listen.js';
import { closeAfterAnswer, firstHeader, readBody } from '../core/request-body.js';
import type { Logger } from '../core/log.js';
import { TallyLog } from '../core/tally-log.js';
import {
  CONNECTIONS_CHECK_MS,
  DEFAULT_MAX_CONNECTIONS,
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
} from '../config/webhook-limits.js';
import type { InlineAnswer } from '../bot/inline-callbacks.js';
import { checkSignature, publicKeyFromHex, SIGNATURE_MAX_SKEW_MS, type SignatureProblem } from './signature.js';

/** The path Discord posts to: the Interactions Endpoint URL ends with it. */
const INTERACTIONS_PATH = '/interactions';

/** Discord's interaction payloads are a few KB; anything this large is not one. */
const INTERACTIONS_MAX_BODY_BYTES = 1024 * 1024;

const PING = 1;
/** Application command, message component, autocomplete, modal submit: each carries `data`. */
const INTERACTION_TYPES = new Set([2, 3, 4, 5]);

export interface EndpointOptions {
  host: string | undefined;
  port: number;
  /** DISCORD_PUBLIC_KEY: the application's Ed25519 public key, hex. */
  publicKey: string;
  logger: Logger;
  /** Hands a verified interaction (not a PING) to the handlers; resolves with the HTTP answer. */
  deliver: (payload: Record<string, unknown>) => Promise<InlineAnswer>;
  /**
   * Whether the interaction is handled here for the first time (handled-once.ts); `until` is when
   * its signature turns stale. A repeat is refused without running anything.
   */
  once?: (guildId: string, id: string, until: number) => Promise<boolean>;
  now?: () => number;
  refusalLogIntervalMs?: number;
}

export interface InteractionsEndpoint {
  readonly url: string;
  /** Stops accepting, lets answers under way finish for up to `graceMs`, then closes what is left. */
  close(graceMs?: number): Promise<void>;
}

type Refusal = `signature_${SignatureProblem}` | 'method' | 'not_found' | 'too_large' | 'malformed' | 'replayed';

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

  const refuse = (res: ServerResponse, status: number, kind: Refusal, text: string): void => {
    refusals.count(kind);
    send(res, status, text);
  };
  const parts: Answering = { key, now, options, refuse };
  const handle = (req: IncomingMessage, res: ServerResponse) => answer(req, res, parts);

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

/** What answering one request needs from the endpoint: its key, its clock, its options, its refusal count. */
interface Answering {
  key: ReturnType<typeof publicKeyFromHex>;
  now: () => number;
  options: EndpointOptions;
  refuse(res: ServerResponse, status: number, kind: Refusal, text: string): void;
}

/** One request: checked (path, method, size, signature, shape, once) before the handlers see it. */
async function answer(req: IncomingMessage, res: ServerResponse, { key, now, options, refuse }: Answering) {
  if (pathOf(req.url) !== INTERACTIONS_PATH) return refuse(res, 404, 'not_found', 'not found');
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    return refuse(res, 405, 'method', 'method not allowed');
  }
  const read = await readBody(req, INTERACTIONS_MAX_BODY_BYTES);
  if (read.kind === 'gone') return; // no one to answer
  if (read.kind === 'too_large') {
    closeAfterAnswer(req, res);
    return refuse(res, 413, 'too_large', 'body too large');
  }
  const body = read.body;
  const timestamp = firstHeader(req, 'x-signature-timestamp');
  const check = checkSignature(key, firstHeader(req, 'x-signature-ed25519'), timestamp, body, now());
  if (!check.ok) return refuse(res, 401, `signature_${check.problem}`, 'invalid request signature');
  const payload = parsedOrUndefined(body);
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    return refuse(res, 400, 'malformed', 'the body must be a JSON object');
  const interaction = payload as Record<string, unknown>;
  if (interaction.type === PING)
    return sendJson(res, { body: Buffer.from('{"type":1}'), contentType: 'application/json' });
  // Signed but not an interaction the handlers can take: said at once, not deferred 2.5 s later.
  if (!isInteraction(interaction))
    return refuse(res, 400, 'malformed', 'not an interaction: id, token, a known type and data are required');
  const until = Number(timestamp) * 1000 + SIGNATURE_MAX_SKEW_MS;
  const guildId = typeof interaction.guild_id === 'string' ? interaction.guild_id : '';
  if (options.once && !(await options.once(guildId, interaction.id, until)))
    return refuse(res, 409, 'replayed', 'this interaction was already handled');
  sendJson(res, await options.deliver(interaction));
}

/** The request's path: Discord's requests name it alone, so a URL is parsed only for anything else. */
function pathOf(target = '/'): string {
  return target === INTERACTIONS_PATH ? target : new URL(target, 'http://endpoint').pathname;
}

function parsedOrUndefined(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

interface InteractionShape extends Record<string, unknown> {
  id: string;
}

/** What every interaction but a PING carries; the rest is the handlers' to check, as over the gateway. */
function isInteraction(payload: Record<string, unknown>): payload is InteractionShape {
  const { id, token, type, data } = payload;
  return (
    typeof id === 'string' &&
    /^\d{17,20}$/.test(id) &&
    typeof token === 'string' &&
    token.length > 0 &&
    typeof type === 'number' &&
    INTERACTION_TYPES.has(type) &&
    typeof data === 'object' &&
    data !== null &&
    !Array.isArray(data)
  );
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
