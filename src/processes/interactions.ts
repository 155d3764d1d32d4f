import { readArgs } from '../core/cli-args.js';

const USAGE = `Usage: npm run interactions

Answers commands over HTTP alone: Discord's Interactions Endpoint URL at
http://INTERACTIONS_HOST:INTERACTIONS_PORT/interactions, checked with DISCORD_PUBLIC_KEY. It never
connects to Discord's gateway and runs no server's background work (posts, polls, roles, reminders):
the gateway processes (npm start) do, from the same store (DATABASE_URL). Run as many as wanted
behind a load balancer. Reads the bot's settings (see .env.example); SIGINT or SIGTERM lets the
interactions in flight finish first.
Exit codes: 0 after a clean stop, 78 when a setting must change, 1 when starting again may work.

Options:
  -h, --help  show this text (reads no settings, connects to nothing)
`;

// Starting loads discord.js and the rest: only once the command line asks for it (--help answers at once).
if (readArgs(USAGE, {})) (await import('./interactions-run.js')).start();
