import { readArgs } from '../core/cli-args.js';

const USAGE = `Usage: npm run receiver

Runs only the Guilds webhook receiver (as ROLE=receiver does): no Discord connection, no bot token.
It stores each delivery in PostgreSQL (DATABASE_URL) and the bot process that serves the server
handles it; run as many as you like behind a load balancer. Reads WEBHOOK_*, DATABASE_URL,
SECRETS_KEY (or DISCORD_GUILD_ID and WEBHOOK_TOKEN for one server), LOG_*, METRICS_*, HEALTH_PORT,
and API_ENABLED (and API_KEYS for one server) to answer the vote API on the same port (docs/api.md).
Exit codes: 0 after a clean stop, 78 when a setting must change, 1 when starting again may work.

Options:
  -h, --help  show this text (reads no settings, connects to nothing)
`;

// Starting loads the store and the receiver: only once the command line asks for it (--help answers at once).
if (readArgs(USAGE, {})) {
  const [{ receiverRole }, { exitOnStartFailure }] = await Promise.all([
    import('./receiver-role.js'),
    import('./start-failure.js'),
  ]);
  receiverRole().catch((error: unknown) => exitOnStartFailure(error, 'The webhook receiver'));
}
