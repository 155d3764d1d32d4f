import { readArgs } from '../core/cli-args.js';

const USAGE = `Usage: npm run rotate-secrets

Re-seals every server's API key, app id, webhook token and listings' secrets under SECRETS_KEY,
opening the ones an older key sealed with SECRETS_KEY_PREVIOUS. Reads DATABASE_URL, SECRETS_KEY and SECRETS_KEY_PREVIOUS
from the environment or .env. Stop the bot first: it refuses to run while a bot holds the store.
Afterwards SECRETS_KEY_PREVIOUS can be removed.

Options:
  --forget-lost  first drop the secrets neither key opens (the key that sealed them is lost), naming
                 their servers: each runs /setup credentials (and /setup webhook, /setup listing add)
                 again
  -h, --help     show this text
`;

const args = readArgs(USAGE, { 'forget-lost': { type: 'boolean' } });
// Rotating opens the store and the sealing keys: only once the command line asks for it.
if (args) (await import('./rotate-secrets-run.js')).runRotate(args['forget-lost'] === true);
