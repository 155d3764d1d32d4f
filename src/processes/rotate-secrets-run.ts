import { ConfigError } from '../config/load.js';
import { loadRotateConfig } from '../config/tools.js';
import { EXIT_CONFIG, EXIT_FAILURE, exitCodeOf } from '../core/exit-codes.js';
import { Servers } from '../servers/servers.js';
import {
  describeDatabase,
  holdStore,
  openStore,
  StoreError,
  type DatabaseTarget,
  type StoreLock,
} from '../store/index.js';
import { sqliteFault } from '../store/sqlite-faults.js';
import { SecretError } from '../secrets/secret-box.js';

async function rotate(forgetLost: boolean): Promise<void> {
  const config = loadRotateConfig();
  const lock = await holdAtOnce(config.database);
  try {
    const root = await openStore(config.database);
    try {
      // No environment server: rotation changes sealed values only, never adopts rows or adds records.
      const servers = new Servers(root, config.secrets, undefined);
      await servers.load();
      if (forgetLost) {
        const lost = await servers.forgetLost();
        process.stdout.write(
          lost.values === 0
            ? 'Every secret opens with SECRETS_KEY or SECRETS_KEY_PREVIOUS: none forgotten.\n'
            : `Forgot ${lost.values} secret${lost.values === 1 ? '' : 's'} that neither key opens, of ${lost.guildIds.length} server${lost.guildIds.length === 1 ? '' : 's'}: ${lost.guildIds.join(', ')}. Each runs /setup credentials (and /setup webhook, for a new token) again.\n`,
        );
      }
      const count = await servers.resealAll();
      process.stdout.write(
        `Re-sealed ${count} secret${count === 1 ? '' : 's'} of ${servers.known().length} server${servers.known().length === 1 ? '' : 's'} in ${describeDatabase(config.database)} under SECRETS_KEY. SECRETS_KEY_PREVIOUS can now be removed.\n`,
      );
    } finally {
      await root.close();
    }
  } finally {
    await lock.release();
  }
}

/**
 * The store lock the bot takes, asked for once: a running bot caches sealed values and would write
 * old ones back over the re-sealed ones, so rotation waits for nobody and refuses while one holds it.
 */
async function holdAtOnce(database: DatabaseTarget): Promise<StoreLock> {
  const store = describeDatabase(database);
  const held = () =>
    new StoreError(
      `A bot holds the store ${store}: stop it, run npm run rotate-secrets, then start it with the new keys.`,
    );
  const refuse = new AbortController();
  try {
    return await holdStore(database, {
      signal: refuse.signal,
      onStandby: (reason) =>
        refuse.abort(
          reason.kind === 'unreachable'
            ? new StoreError(`The store ${store} is not reachable: ${reason.detail}`)
            : held(),
        ),
      onLost: () => undefined,
    });
  } catch (error) {
    // SQLite refuses at once too, in words meant for a second bot.
    if (error instanceof StoreError && sqliteFault(error.cause) === 'busy') throw held();
    throw error;
  }
}

function explain(error: unknown): string {
  if (error instanceof ConfigError || error instanceof StoreError) return error.message;
  if (error instanceof SecretError)
    return `${error.message}. What was re-sealed before it opens with SECRETS_KEY; set SECRETS_KEY_PREVIOUS to the key that sealed the rest, then run again (with --forget-lost if that key is lost).`;
  return `rotate-secrets failed: ${error instanceof Error ? error.message : String(error)}`;
}

function exitCode(error: unknown): number {
  if (error instanceof SecretError) return EXIT_CONFIG;
  return error instanceof ConfigError || error instanceof StoreError ? exitCodeOf(error) : EXIT_FAILURE;
}

/** Rotates the sealed secrets and exits with the outcome. */
export function runRotate(forgetLost: boolean): void {
  rotate(forgetLost).then(
    // The PostgreSQL pool may keep the loop alive a moment: exit once the line is written.
    () => process.stdout.write('', () => process.exit(0)),
    (error: unknown) => {
      process.stderr.write(`${explain(error)}\n`);
      process.exit(exitCode(error));
    },
  );
}
