import { populateErrorResponse, populateSuccessfulResponse } from '@discordjs/proxy';
import type { REST, RequestMethod } from '@discordjs/rest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { REQUEST_BODY_MAX } from '../core/discord-limits.js';
import { REFUSALS, countsGlobally, refusalOf, routeOf, type Refusal, type RefusalReason } from './admission.js';
import { closeAfterAnswer, readBody } from '../core/request-body.js';
import type { WireWatch } from './wire-watch.js';

/** A caller that hung up: before its request was sent (then never sent), or after (its answer dropped). */
export type GoneKind = 'before_sending' | 'after_sending';

export interface ForwardLog {
  refused(reason: RefusalReason, example: string): void;
  gone(kind: GoneKind): void;
}

/**
 * @discordjs/proxy's proxyRequests, with these changes. It forwards only what a bot sends Discord
 * (admission.ts), and reads a body whole before it is queued, up to Discord's own limit:
 * proxyRequests hands the incoming stream itself to the queue, and the queue sends a request again
 * after a 429, by then with the stream used up (Discord got an empty body and the bot a 400). And a
 * request whose caller hangs up while it waits in the queue is dropped: the caller's REST client
 * sends it again after its timeout, so sending this one too would post twice; so is one that met a
 * 429 (Discord did nothing with it) and waits to be sent again.
 */
export function forwardRequests(rest: REST, wire: WireWatch, log: ForwardLog) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const example = `${req.method} ${url.pathname.slice(0, 100)}`;
    const refusal = refusalOf(req.method, url.pathname, req.headers.authorization);
    if (refusal) return refuse(req, res, refusal, example, log);
    const read = await readBody(req, REQUEST_BODY_MAX);
    if (read.kind === 'too_large') return refuse(req, res, REFUSALS.too_large, example, log);
    if (read.kind === 'gone') return log.gone('before_sending');

    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'authorization', 'x-audit-log-reason']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const controller = new AbortController();
    let gone = false;
    // A 429 met after the caller hung up: Discord did nothing, and the caller's successor will ask again.
    const route = routeOf(url.pathname)!;
    const watched = wire.watch(headers, countsGlobally(route, headers.authorization), () => {
      if (gone) controller.abort();
    });
    res.once('close', () => {
      if (res.writableFinished) return;
      gone = true;
      if (!watched.sent()) controller.abort();
    });
    const hungUp = () => log.gone(watched.sent() ? 'after_sending' : 'before_sending');
    try {
      const answer = await rest.queueRequest({
        fullRoute: route,
        method: req.method as RequestMethod,
        body: req.method !== 'GET' && read.body.length > 0 ? read.body : undefined,
        passThroughBody: true,
        // The calling bot's own Authorization header goes through as it came.
        auth: false,
        query: url.searchParams,
        headers,
        signal: controller.signal,
      });
      if (gone) {
        hungUp();
        await answer.arrayBuffer().catch(() => undefined);
        return;
      }
      await populateSuccessfulResponse(res, answer);
    } catch (error) {
      // Aborted in the queue, or cut off while its answer was being written: no one to answer.
      if (gone) return hungUp();
      if (!populateErrorResponse(res, error)) throw error;
    } finally {
      watched.done();
      if (!gone) res.end();
    }
  };
}

/** Answers with the refusal and closes the connection without reading the rest of the body. */
function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal, example: string, log: ForwardLog): void {
  log.refused(refusal.reason, example);
  closeAfterAnswer(req, res);
  if (refusal.reason === 'method') res.setHeader('allow', 'GET, POST, PUT, PATCH, DELETE');
  res.writeHead(refusal.status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ message: refusal.message, code: 0 }));
}
