import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface ReachedRequest {
  readonly method: string;
  readonly path: string;
  body: string;
  /** The sender cut the request off before its answer was written. */
  cancelled: boolean;
  answered: boolean;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  delayMs?: number;
}

export interface RecordingUpstream {
  /** A REST base as @discordjs/rest takes it (it adds /v10). */
  readonly url: string;
  /** Every request that reached this server, as its headers arrived. */
  readonly requests: ReachedRequest[];
  close(): Promise<void>;
}

/** A stand-in for Discord's REST API that records what reaches it and answers as `answer` says (200 `{}` by default). */
export async function startRecordingUpstream(
  answer: (req: IncomingMessage) => Answer = () => ({}),
): Promise<RecordingUpstream> {
  const requests: ReachedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const reached: ReachedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      body: '',
      cancelled: false,
      answered: false,
    };
    requests.push(reached);
    req.setEncoding('utf8').on('data', (chunk: string) => (reached.body += chunk));
    res.once('close', () => (reached.cancelled = !res.writableFinished));
    req.once('end', () => {
      const { status = 200, headers = {}, body = {}, delayMs = 0 } = answer(req);
      // A slow answer (delayMs) is what a test asks for when slowness is its subject: nothing to await.
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body), () => (reached.answered = true));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
