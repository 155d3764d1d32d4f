import { readArgs } from '../core/cli-args.js';
import { onStopSignal } from '../core/stop-on-signal.js';
import { startSandbox } from '../sandbox/server.js';

const USAGE = `Usage: npm run sandbox

Starts a local, spec-faithful stand-in for the votes & reviews service, with seed data, and prints the
lines to paste into .env. Ctrl+C stops it. Settings, from the environment:
  SANDBOX_HOST (127.0.0.1), SANDBOX_PORT (8787; 0 picks a free port), SANDBOX_API_KEY, SANDBOX_APP_ID,
  SERVICE_HEADER_PREFIX (Service), SANDBOX_RATE_LIMIT (requests/seconds such as 10/5; none by default)

Options:
  -h, --help  show this text
`;

// The sandbox is a separate program from the bot, so it reads its own few settings here rather
// than through the bot's src/config/bot.ts, which would demand a Discord token it has no use for.
async function serve(): Promise<void> {
  const env = process.env;
  const port = Number(env.SANDBOX_PORT || 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`SANDBOX_PORT must be a port number (0-65535), got "${env.SANDBOX_PORT}".`);
    process.exit(1);
  }
  const headerPrefix = env.SERVICE_HEADER_PREFIX || 'Service';
  // `10/5`: 10 requests per 5 s window, as the real service limits a guild.
  const rateLimitMatch = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(env.SANDBOX_RATE_LIMIT?.trim() ?? '');
  if (env.SANDBOX_RATE_LIMIT && (!rateLimitMatch || Number(rateLimitMatch[1]) < 1 || Number(rateLimitMatch[2]) <= 0)) {
    console.error(`SANDBOX_RATE_LIMIT must be requests/seconds such as 10/5, got "${env.SANDBOX_RATE_LIMIT}".`);
    process.exit(1);
  }
  const rateLimit = rateLimitMatch
    ? { limit: Number(rateLimitMatch[1]), windowMs: Number(rateLimitMatch[2]) * 1000 }
    : undefined;

  const sandbox = await startSandbox({
    host: env.SANDBOX_HOST || '127.0.0.1',
    port,
    apiKey: env.SANDBOX_API_KEY || 'sandbox-api-key',
    appId: env.SANDBOX_APP_ID || 'sandbox-app-id',
    headerPrefix,
    rateLimit,
    // A long session must not grow without bound; nobody reads this log from the command line.
    maxLog: 1000,
  });

  const envLines = [
    `SERVICE_BASE_URL=${sandbox.baseUrl}`,
    `SERVICE_API_KEY=${sandbox.apiKey}`,
    `SERVICE_APP_ID=${sandbox.appId}`,
    ...(headerPrefix === 'Service' ? [] : [`SERVICE_HEADER_PREFIX=${headerPrefix}`]),
  ];
  console.log(`Votes & reviews sandbox listening at ${sandbox.baseUrl}

  Paste into .env (these are the sandbox's made-up credentials, not secrets):
  ${envLines.join('\n')}

  Users to try:
    284102390141648897  active vote (about 10 h left) and a 5-star review (rev_7Hq2LmX9)
    412958623017041920  no vote and no review
    593031275438718986  no vote; a 2-star review with **bold** and @everyone (rev_Kd81PzQ4)

  Ctrl+C stops it.`);

  onStopSignal(
    (signal) => {
      console.log(`\n${signal}: closing the sandbox.`);
      sandbox.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('The sandbox did not close cleanly:', error);
          process.exit(1);
        },
      );
    },
    // A second Ctrl+C while it closes: stop waiting.
    () => process.exit(1),
  );
}

if (readArgs(USAGE, {})) await serve();
