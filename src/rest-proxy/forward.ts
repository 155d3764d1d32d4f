import { populateErrorResponse, populateSuccessfulResponse } from '@discordjs/proxy';
import type { REST, RequestMethod } from '@discordjs/rest';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * @discordjs/proxy's proxyRequests, with one change: the request body is read into memory before it
 * is queued. proxyRequests hands the incoming stream itself to the queue, and the queue sends a
 * request again after a 429, by then with the stream used up: Discord got an empty body and the
 * bot a 400 ("Cannot send an empty message") for a post it had made correctly.
 */
export function forwardRequests(rest: REST) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const fullRoute = url.pathname.replace(/^\/api(\/v\d+)?/, '') as `/${string}`;
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'authorization', 'x-audit-log-reason']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && chunks.length > 0;
    try {
      const answer = await rest.queueRequest({
        fullRoute,
        method: req.method as RequestMethod,
        body: hasBody ? Buffer.concat(chunks) : undefined,
        passThroughBody: true,
        // The calling bot's own Authorization header goes through as it came.
        auth: false,
        query: url.searchParams,
        headers,
      });
      await populateSuccessfulResponse(res, answer);
    } catch (error) {
      if (!populateErrorResponse(res, error)) throw error;
    } finally {
      res.end();
    }
  };
}
