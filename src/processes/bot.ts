import { readArgs } from '../core/cli-args.js';

const USAGE = `Usage: npm start

Starts the bot: reads its settings from the environment or .env (see .env.example; DOTENV_CONFIG_PATH
names another file, such as the .env.playground that npm run playground writes), opens the store,
connects to Discord and stays running until SIGINT or SIGTERM, which drain interactions in flight.
ROLE=all (default) runs the bot and its webhook receiver, ROLE=bot the bot alone, ROLE=receiver the
receiver alone (as npm run receiver; PostgreSQL only). With INTERACTIONS_PORT it also answers
commands over HTTP at http://host:port/interactions (npm run interactions serves only that). With
DASHBOARD_PORT it serves the web dashboard (npm run dashboard serves only that; docs/dashboard.md).
Exit codes: 0 after a clean stop, 78 when a setting must change, 1 when starting again may work.

Options:
  -h, --help  show this text (reads no settings, connects to nothing)
`;

// Starting loads discord.js and every part of the bot: only once the command line asks for it (--help answers at once).
if (readArgs(USAGE, {})) (await import('./bot-run.js')).startBot();
