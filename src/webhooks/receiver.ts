import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { hostInUrl, listen } from '../core/listen.js';
import {
  CONNECTIONS_CHECK_MS,
  DEFAULT_MAX_CONNECTIONS,
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  WEBHOOK_MAX_BODY_BYTES,
} from '../config/webhook-limits.js';
import { answer, Deliveries, type ReceiverOptions } from './deliveries.js';
import { RefusalLog } from './refusals.js';

export { WEBHOOK_MAX_BODY_BYTES };
export type { ReceiverOptions };

export interface Receiver {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Guilds' webhook receiver. An accepted event is in the store before the 200 goes out, so a
 * crash after answering loses nothing; the answer never waits on Discord, and waits on the store
 * only for a second: a stalled store gets a 503, which Guilds retries.
 */
export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const refusals = new RefusalLog(options.logger, {
    intervalMs: options.refusalLogIntervalMs,
    onRefused: options.onRefused,
  });
  const deliveries = new Deliveries(options, refusals);
  const server: Server = createServer(
    {
      headersTimeout: options.timeouts?.headersMs ?? HEADERS_TIMEOUT_MS,
      requestTimeout: options.timeouts?.requestMs ?? REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: options.timeouts?.checkMs ?? CONNECTIONS_CHECK_MS,
    },
    (req, res) => {
      const api = options.api?.owns(new URL(req.url ?? '/', 'http://receiver').pathname) ? options.api : undefined;
      void (api ?? deliveries).handle(req, res).catch((err: unknown) => {
        options.logger.error({ err }, api ? 'vote API request failed' : 'webhook delivery failed');
        answer(res, 500, 'internal error');
      });
    },
  );
  // Past the cap Node accepts and closes at once (the 'drop' event), so held connections can
  // never take the file descriptors /healthz, Discord and the store need.
  server.maxConnections = maxConnections;
  server.on('drop', () => refusals.refuse('connection_cap', { maxConnections }));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => refuseClient(err, socket, refusals));

  const address = await listen(
    server,
    options.port,
    options.host,
    (reason) =>
      `Could not receive webhooks on ${hostInUrl(options.host ?? '0.0.0.0')}:${options.port} (${reason}): choose a free WEBHOOK_PORT (or stop what holds it), and a WEBHOOK_HOST this machine has.`,
  );
  return {
    url: `http://${hostInUrl(address.address)}:${address.port}${options.path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        refusals.close();
      }),
  };
}

/** Raw answers for connections Node refused before a request object existed, as Node itself sends them. */
const CLIENT_ERROR_ANSWERS: Readonly<Record<string, string>> = {
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
};

/**
 * Node's own handling of a bad or timed-out connection (answer if nothing was sent yet, then
 * close), with the refusal counted: without a listener Node does the same silently.
 */
function refuseClient(err: NodeJS.ErrnoException, socket: Duplex, refusals: RefusalLog): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  refusals.refuse(timedOut ? 'timeout' : 'bad_request', timedOut ? {} : { problem: err.code });
  // The response in progress on this socket, if any (Node's own field): a started answer must not be corrupted.
  const inProgress = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (!inProgress?.headersSent) {
    const status = CLIENT_ERROR_ANSWERS[err.code ?? ''] ?? '400 Bad Request';
    socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }
  socket.destroy();
}
