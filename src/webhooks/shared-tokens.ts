import { BoundedMap } from '../core/bounded-map.js';
import type { Servers } from '../servers/servers.js';

/** How long a token read from a shared store is trusted: one made or rotated elsewhere is in force within this. */
export const TOKEN_FRESH_MS = 5_000;
/** Past this many servers remembered, the read times are forgotten (a flood of made-up server ids stays small). */
const MAX_REMEMBERED = 100_000;

/**
 * Each server's webhook token from a store other processes write (PostgreSQL): /setup in a bot
 * process makes or rotates it, so a receiver reads the server's record again once it is
 * TOKEN_FRESH_MS old. Concurrent deliveries for one server share one read.
 */
export class SharedTokens {
  readonly #readAt = new BoundedMap<string, number>({ max: MAX_REMEMBERED, whenFull: 'clear' });
  readonly #reading = new Map<string, Promise<void>>();

  constructor(
    private readonly servers: Pick<Servers, 'reload' | 'isConfigured' | 'webhookToken'>,
    private readonly now: () => number = Date.now,
    private readonly freshMs = TOKEN_FRESH_MS,
  ) {}

  async tokenFor(guildId: string): Promise<string | undefined> {
    const readAt = this.#readAt.get(guildId);
    if (readAt === undefined || this.now() - readAt >= this.freshMs) await this.#read(guildId);
    return this.servers.isConfigured(guildId) ? this.servers.webhookToken(guildId) : undefined;
  }

  #read(guildId: string): Promise<void> {
    const running = this.#reading.get(guildId);
    if (running) return running;
    const at = this.now();
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
