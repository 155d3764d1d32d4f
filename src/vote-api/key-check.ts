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
 * looked up and compared: API_KEYS's in a set, a store key by an index read and then its hash
 * compared again in constant time. A lookup's time depends on the hash alone, which tells nothing
 * of any key, and a request costs the same however many keys there are.
 */
export class KeyCheck {
  readonly #single: { guildId: string; hashes: ReadonlySet<string> } | undefined;

  constructor(private readonly options: KeyCheckOptions) {
    const single = options.single;
    this.#single = single && { guildId: single.guildId, hashes: new Set(single.keys.map(hashApiKey)) };
  }

  /** The key's holder; undefined for no key, a malformed one or one no server has. May read the store. */
  async holder(authorization: string | undefined): Promise<KeyHolder | undefined> {
    const key = BEARER.exec(authorization ?? '')?.[1];
    // Not the shape of any key: refused with no hash and no store read.
    if (key === undefined || !isApiKey(key)) return undefined;
    const hash = hashApiKey(key);
    // A set, not every key compared in turn: with a thousand keys that cost a millisecond a request.
    if (this.#single?.hashes.has(hash)) return { guildId: this.#single.guildId, bucket: hash };
    const record = await this.options.store.apiKeyByHash(hash);
    return record && sameHash(record.keyHash, hash) ? { guildId: record.guildId, bucket: hash } : undefined;
  }
}
