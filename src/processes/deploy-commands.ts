import { readArgs } from '../core/cli-args.js';

const USAGE = `Usage: npm run deploy-commands [-- --dry-run]

Registers the slash commands of commands/ with one bulk overwrite: in DISCORD_GUILD_ID when it is set,
otherwise globally (every server that invites the bot). Reads DISCORD_TOKEN, DISCORD_CLIENT_ID,
DISCORD_GUILD_ID and DISCORD_API_URL from the environment or .env.

Options:
  --dry-run   print how the registered commands differ from commands/ and change nothing
  -h, --help  show this text
`;

const args = readArgs(USAGE, { 'dry-run': { type: 'boolean' } });
// Deploying loads discord.js and every command module: only once the command line asks for it.
if (args) (await import('./deploy-commands-run.js')).runDeploy(args['dry-run'] === true);
