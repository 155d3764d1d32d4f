import { BoundedMap } from '../core/bounded-map.js';
import type { Servers } from '../servers/servers.js';
import type { KnownServers } from './known-servers.js';

/** How long a token read from a shared store is trusted: one made or rotated elsewhere is in force within this. */
const TOKEN_FRESH_MS = 5_000;
/** Past this many servers remembered, the read times are forgotten (a flood of made-up server ids stays small). */
const MAX_REMEMBERED = 100_000;

export interface SharedTokensOptions {
  /** The servers that may take deliveries: a record is read only for those. Without it, any id's is. */
  known?: Pick<KnownServers, 'mayTake' | 'drop'>;
  now?: () => number;
  freshMs?: number;
}

/**
 * Each server's webhook token from a store other processes write (PostgreSQL): /setup in a bot
 * process makes or rotates it, so a receiver reads the server's record again once it is
 * TOKEN_FRESH_MS old. Concurrent deliveries for one server share one read. Ids not known to take
 * deliveries are answered from memory.
 */
export class SharedTokens {
  readonly #readAt = new BoundedMap<string, number>({ max: MAX_REMEMBERED, whenFull: 'clear' });
  readonly #reading = new Map<string, Promise<void>>();
  readonly #now: () => number;
  readonly #freshMs: number;

  constructor(
    private readonly servers: Pick<Servers, 'reload' | 'isConfigured' | 'webhookToken' | 'takesDeliveries'>,
    private readonly options: SharedTokensOptions = {},
  ) {
    this.#now = options.now ?? Date.now;
    this.#freshMs = options.freshMs ?? TOKEN_FRESH_MS;
  }

  /** Servers whose read time is remembered. */
  get remembered(): number {
    return this.#readAt.size;
  }

  /** The server's record changed in the store: read it again on its next delivery. */
  stale(guildId: string): void {
    this.#readAt.delete(guildId);
  }

  async tokenFor(guildId: string): Promise<string | undefined> {
    if (!(await this.fresh(guildId))) return undefined;
    return this.servers.isConfigured(guildId) ? this.servers.webhookToken(guildId) : undefined;
  }

  /**
   * Reads the server's record (its token and listings) again if it is older than TOKEN_FRESH_MS;
   * false, with no read, for a server not known to take deliveries.
   */
  async fresh(guildId: string): Promise<boolean> {
    const known = this.options.known;
    if (known && !(await known.mayTake(guildId))) return false;
    const readAt = this.#readAt.get(guildId);
    if (readAt === undefined || this.#now() - readAt >= this.#freshMs) await this.#read(guildId);
    if (!this.servers.takesDeliveries(guildId) && known) {
      // Read and found taking none: dropped, so further deliveries for it read nothing; its read time
      // too, so once it is heard of again (set up meanwhile) its record is read at once.
      known.drop(guildId);
      this.#readAt.delete(guildId);
      return false;
    }
    return true;
  }

  #read(guildId: string): Promise<void> {
    const running = this.#reading.get(guildId);
    if (running) return running;
    const at = this.#now();
    const reading = this.servers
      .reload(guildId)
      .then(() => {
        this.#readAt.set(guildId, at);
      })
      .finally(() => this.#reading.delete(guildId));
    this.#reading.set(guildId, reading);
    return reading;
  }
}
