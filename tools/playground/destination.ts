/* `npm run playground:destination`: a place votes are forwarded to, on 127.0.0.1, that prints every
 * delivery it receives and whether its signature checks out. See docs/playground.md. */
import { randomBytes } from 'node:crypto';
import { EXIT_USAGE, readArgs } from '../../src/core/cli-args.js';
import { startForwardDestination, type Received } from '../forward-destination.js';

const DEFAULT_PORT = 8793;

const USAGE = `Usage: npm run playground:destination [-- options]

Listens on 127.0.0.1 as a bot that takes forwarded votes would, and prints each delivery: its type,
its x-vote-delivery id, whether x-vote-signature checks out with the secret, and the body. Start the
bot with the lines it prints (FORWARD_URLS, FORWARD_SECRET, FORWARD_ALLOW_PRIVATE=true).

Options:
  --port N      where it listens (default ${DEFAULT_PORT}; 0 picks a free port)
  --secret S    the secret the bot signs with (default: one made now, printed)
  --answer N    the status it answers with (default 200; 503 shows the bot trying again)
  -h, --help    show this text
`;

const values = readArgs(USAGE, {
  port: { type: 'string' },
  secret: { type: 'string' },
  answer: { type: 'string' },
});

function line(received: Received): string {
  const check = received.signed ? '✔ signature checks out' : '✘ signature does NOT check out';
  return `${new Date().toISOString()} ${received.body.type} ${received.deliveryId} ${check}; answered ${received.answered}\n${JSON.stringify(received.body, null, 2)}\n`;
}

if (values) {
  const port = Number(values.port ?? DEFAULT_PORT);
  const status = Number(values.answer ?? 200);
  if (
    !Number.isInteger(port) ||
    port < 0 ||
    port > 65_535 ||
    !Number.isInteger(status) ||
    status < 200 ||
    status > 599
  ) {
    process.stderr.write(`--port must be a port and --answer a status from 200 to 599\n\n${USAGE}`);
    process.exitCode = EXIT_USAGE;
  } else {
    const secret = values.secret ?? `vrf_${randomBytes(24).toString('base64url')}`;
    const destination = await startForwardDestination({
      secret,
      port,
      onReceive: (received) => process.stdout.write(line(received)),
    });
    destination.answer = () => ({ status });
    process.stdout.write(
      `Listening at ${destination.url}. Start the bot with these settings beside its others:\n` +
        `FORWARD_URLS=${destination.url}\nFORWARD_SECRET=${secret}\nFORWARD_ALLOW_PRIVATE=true\n`,
    );
    process.once('SIGINT', () => void destination.close());
    process.once('SIGTERM', () => void destination.close());
  }
}
