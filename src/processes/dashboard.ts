import { readArgs } from '../core/cli-args.js';

const USAGE = `Usage: npm run dashboard

Serves the web dashboard alone (docs/dashboard.md) at DASHBOARD_PUBLIC_URL, listening on
DASHBOARD_HOST:DASHBOARD_PORT. It never connects to Discord's gateway and runs no server's work:
it reads servers over Discord's REST API and shares the store (DATABASE_URL) with the gateway
processes (npm start). Reads the bot's settings (see .env.example); SIGINT or SIGTERM stops it.
Exit codes: 0 after a clean stop, 78 when a setting must change, 1 when starting again may work.

Options:
  -h, --help  show this text (reads no settings, connects to nothing)
`;

// Starting loads discord.js and the rest: only once the command line asks for it (--help answers at once).
if (readArgs(USAGE, {})) (await import('./dashboard-run.js')).start();
