// The ESM build the proxy imports, not discord.js's CommonJS copy: the proxy recognises Discord's
// errors (404, 403, 429…) by instanceof, and a class from the other build fails that test.
import { REST } from '@discordjs/rest';
import { createServer } from 'node:http';
import { listen } from '../core/listen.js';
import { drainOnSignal } from './drain-on-signal.js';
import { loadRestProxyConfig } from '../config/rest-proxy.js';
import { processLogger } from './process-logger.js';
import { startOrExit } from './start-failure.js';
import { forwardRequests, type GoneKind } from '../rest-proxy/forward.js';
import type { RefusalReason } from '../rest-proxy/admission.js';
import { WireWatch } from '../rest-proxy/wire-watch.js';
import { Pacer } from '../rest-proxy/pacer.js';
import { watchRateLimits } from '../core/discord-rate-limits.js';
import { TallyLog } from '../core/tally-log.js';

const WHAT = 'The REST proxy';

async function main(): Promise<void> {
  const config = loadRestProxyConfig();
  const logger = processLogger(config, []);
  // Retries are the calling bot's to decide (its policy knows which requests are safe to repeat);
  // a request that meets a closed window waits here, in the one queue, rather than bouncing back.
  // REST's window admits N a second and holds the rest while Discord's global 429 lasts; the pacer
  // spaces those N (pacer.ts says why), so at most a second's worth waits for a turn there.
  const wire = new WireWatch(new Pacer(config.requestsPerSecond));
  const rest = new REST({
    api: config.upstream,
    globalRequestsPerSecond: config.requestsPerSecond,
    retries: 0,
    makeRequest: wire.makeRequest,
  });
  const rateLimits = watchRateLimits(rest, logger);
  // A stranger (or a bot pointed at the wrong path) can send any number of these: counted, not a line each.
  const refused = new TallyLog<RefusalReason>(logger, { level: 'warn', msg: 'REST proxy refused requests' });
  const gone = new TallyLog<GoneKind>(logger, { level: 'info', msg: 'REST proxy callers hung up before their answer' });
  const forward = forwardRequests(rest, wire, {
    refused: (reason, example) => refused.count(reason, example),
    gone: (kind) => gone.count(kind),
  });
  const server = createServer((req, res) => {
    void Promise.resolve(forward(req, res)).catch((err: unknown) => {
      logger.error({ err, method: req.method }, 'could not forward a request');
      // The proxy may have answered already (e.g. Discord's 10062 for a late interaction callback):
      // ending the answer twice would throw outside any handler and stop the proxy for every bot.
      if (res.writableEnded) return;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'the REST proxy could not forward the request', code: 0 }));
    });
  });
  const { port } = await listen(
    server,
    config.port,
    config.host,
    // Word for word the line this failure has always printed (a plain error, after WHAT could not start).
    (reason) =>
      `${WHAT} could not start: could not listen on ${config.host}:${config.port} (${reason}): choose a free REST_PROXY_PORT`,
  );
  logger.info(
    { url: `http://${config.host}:${port}/api`, upstream: config.upstream, perSecond: config.requestsPerSecond },
    'REST proxy listening',
  );
  drainOnSignal({
    logger,
    graceMs: 0,
    // Requests in flight are answered; idle keep-alive connections close at once.
    then: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }).finally(() => {
        for (const tally of [rateLimits, refused, gone]) tally.close();
      }),
    lateExitCode: 0,
  });
}

/** Starts it; a failure to start exits with its code and the fix. */
export const start = (): void => startOrExit(main, WHAT);
