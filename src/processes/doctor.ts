import { readArgs } from '../core/cli-args.js';

const USAGE = `Usage: npm run doctor [-- --json] [-- --server <server id>]

Checks a real setup end to end (settings, Discord, the channels and roles, the service), one line per
check, reading only. Reads the same settings as the bot, from the environment or .env.
Exit codes: 0 when no check failed (a skipped one is not a failure), 78 when the configuration does not
parse, 1 for any other failure.

Options:
  --server ID with many servers: check that server as /setup status does (its stored settings,
              opened with SECRETS_KEY: channels, roles, service credentials)
  --json      print the checks as a JSON array of { ok, name, status, detail, fix } (fix is null
              unless the check failed), for scripts; the exit codes are the same
  -h, --help  show this text
`;

const args = readArgs(USAGE, { json: { type: 'boolean' }, server: { type: 'string' } });
// The checks load discord.js, the store and the service client: only once the command line asks for them.
if (args) (await import('./doctor-run.js')).runDoctor(args.json === true, args.server);
