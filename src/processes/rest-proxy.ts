// The ESM build the proxy imports, not discord.js's CommonJS copy: the proxy recognises Discord's
// errors (404, 403, 429…) by instanceof, and a class from the other build fails that test.
import { REST } from '@discordjs/rest';
import { createServer } from 'node:http';
import { installProcessGuards } from '../bot/process-guards.js';
import { readArgs } from '../core/cli-args.js';
import { listen } from '../core/listen.js';
import { stopOnSignal } from '../core/stop-on-signal.js';
import { loadRestProxyConfig } from '../config/rest-proxy.js';
import { createLogger } from '../core/log.js';
import { exitOnStartFailure } from './start-failure.js';
import { forwardRequests, type GoneKind } from '../rest-proxy/forward.js';
import type { RefusalReason } from '../rest-proxy/admission.js';
import { WireWatch } from '../rest-proxy/wire-watch.js';
import { watchRateLimits } from '../core/discord-rate-limits.js';
import { TallyLog } from '../core/tally-log.js';

const USAGE = `Usage: npm run rest-proxy

Runs @discordjs/proxy: one REST queue in front of Discord that every bot process sends through
(set their DISCORD_API_URL to http://<this host>:<REST_PROXY_PORT>/api), so the bot's global budget
of 50 requests per second is kept across all of them, and per-route buckets are shared too. Each
request carries its bot's own Authorization header; the proxy holds no token. It forwards only
GET, POST, PUT, PATCH and DELETE to /api/… or /api/v10/… with "Authorization: Bot …", bodies up
to Discord's 25 MiB, and drops a queued request whose caller hung up.
Reads REST_PROXY_PORT (8080), REST_PROXY_HOST (127.0.0.1), REST_PROXY_UPSTREAM (Discord),
REST_PROXY_REQUESTS_PER_SECOND (25, at most 50), LOG_LEVEL, LOG_FORMAT.

Options:
  -h, --help  show this text (reads no settings, connects to nothing)
`;

const WHAT = 'The REST proxy';

async function main(): Promise<void> {
  const config = loadRestProxyConfig();
  const logger = createLogger(config.logLevel, [], undefined, config.logFormat);
  installProcessGuards(logger);
  // Retries are the calling bot's to decide (its policy knows which requests are safe to repeat);
  // a request that meets a closed window waits here, in the one queue, rather than bouncing back.
  const wire = new WireWatch();
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
  stopOnSignal({
    logger,
    // Requests in flight are answered; idle keep-alive connections close at once.
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }).finally(() => {
        for (const tally of [rateLimits, refused, gone]) tally.close();
      }),
    withinMs: 5_000,
    lateExitCode: 0,
  });
}

if (readArgs(USAGE, {})) main().catch((error: unknown) => exitOnStartFailure(error, WHAT));
