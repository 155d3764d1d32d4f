import { EXIT_CONFIG, FatalStartError } from '../core/exit-codes.js';
import type { SecretKeys } from '../secrets/secret-box.js';
import type { SealedKeyUse, ServerRecordStore } from '../store/index.js';

/**
 * Refuses a start whose keys cannot open every stored secret. Started anyway, the process would log
 * `ready` and then answer every interaction "Something went wrong" and every webhook 503 in each
 * server it cannot open, with no word to the operator of why. Without SECRETS_KEY (one server from
 * the environment) no stored secret is ever opened, so there is nothing to check.
 */
export async function refuseUnopenableSecrets(
  store: Pick<ServerRecordStore, 'sealedKeyUses'>,
  keys: SecretKeys | undefined,
): Promise<void> {
  if (!keys) return;
  const problem = unopenableSecrets(await store.sealedKeyUses(), keys);
  if (problem) throw new FatalStartError(problem, EXIT_CONFIG);
}

/** What the operator reads when some stored secrets open with neither key: counts and key ids, never a value. */
function unopenableSecrets(uses: readonly SealedKeyUse[], keys: SecretKeys): string | undefined {
  const unknown = uses.filter(
    (use) => use.keyId === undefined || ![keys.current.id, keys.previous?.id].includes(use.keyId),
  );
  if (unknown.length === 0) return undefined;
  const values = unknown.reduce((sum, use) => sum + use.values, 0);
  // A server with values under two unknown keys is counted twice: rare, and still the right fix.
  const servers = unknown.reduce((sum, use) => sum + use.servers, 0);
  const sealers = unknown.map((use) => (use.keyId === undefined ? 'no key (not in the sealed format)' : use.keyId));
  return (
    `SECRETS_KEY does not open ${values} stored secret${values === 1 ? '' : 's'} of ${plural(servers, 'server')}: ` +
    `they were sealed by key ${sealers.join(', ')}, which is neither SECRETS_KEY (${keys.current.id}) ` +
    `nor SECRETS_KEY_PREVIOUS (${keys.previous?.id ?? 'not set'}); a key's id is the first 8 hex characters of its ` +
    `SHA-256. Set SECRETS_KEY to the key that sealed them, or, to move to this key, set SECRETS_KEY_PREVIOUS to ` +
    `that key and run npm run rotate-secrets. If that key is lost, run npm run rotate-secrets -- --forget-lost, ` +
    `then each of those servers runs /setup credentials again.`
  );
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
