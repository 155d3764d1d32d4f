import type { ApiKeyStore } from '../store/index.js';
import { hashApiKey, isApiKey, sameHash } from '../secrets/api-keys.js';

/** The server a key is bound to, and the bucket its requests are counted in (its hash: never the key). */
export interface KeyHolder {
  readonly guildId: string;
  readonly bucket: string;
}

export interface KeyCheckOptions {
  store: Pick<ApiKeyStore, 'apiKeyByHash'>;
  /** Single-server mode: API_KEYS, bound to its one server. */
  single?: { guildId: string; keys: readonly string[] };
}

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Who a request's `Authorization: Bearer <key>` is: the server its key is bound to. Only hashes are
 * compared, each in constant time; a store key is found by its hash (an index read that learns
 * nothing of the key), then its hash compared again.
 */
export class KeyCheck {
  readonly #single: { guildId: string; hashes: string[] } | undefined;

  constructor(private readonly options: KeyCheckOptions) {
    const single = options.single;
    this.#single = single && { guildId: single.guildId, hashes: single.keys.map(hashApiKey) };
  }

  /** The key's holder; undefined for no key, a malformed one or one no server has. May read the store. */
  async holder(authorization: string | undefined): Promise<KeyHolder | undefined> {
    const key = BEARER.exec(authorization ?? '')?.[1];
    // Not the shape of any key: refused with no hash and no store read.
    if (key === undefined || !isApiKey(key)) return undefined;
    const hash = hashApiKey(key);
    if (this.#single) {
      // Every one compared, none skipped: the time taken says nothing of which matched.
      let found = false;
      for (const known of this.#single.hashes) found = sameHash(known, hash) || found;
      if (found) return { guildId: this.#single.guildId, bucket: hash };
    }
    const record = await this.options.store.apiKeyByHash(hash);
    return record && sameHash(record.keyHash, hash) ? { guildId: record.guildId, bucket: hash } : undefined;
  }
}
