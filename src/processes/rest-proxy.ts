import { readArgs } from '../core/cli-args.js';

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

// Starting loads discord.js and the rest: only once the command line asks for it (--help answers at once).
if (readArgs(USAGE, {})) (await import('./rest-proxy-run.js')).start();
