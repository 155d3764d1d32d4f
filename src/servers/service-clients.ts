import { BoundedMap } from '../core/bounded-map.js';
import { createServiceClient, type ServiceClient, type ServiceClientOptions } from '../api/index.js';

export type SharedClientOptions = Omit<ServiceClientOptions, 'apiKey' | 'appId' | 'credentials'>;

export interface ServiceClientsOptions {
  /** Base URL, timeouts and observers: the same for every server. */
  shared: SharedClientOptions;
  /** A server's credentials, opened for each request. */
  credentials: (guildId: string) => { apiKey: string; appId: string };
  /** Clients kept at most; the one idle longest goes first. */
  max?: number;
  /** A client unused this long is dropped (its cache and limiter go with it). */
  idleMs?: number;
  now?: () => number;
}

interface Entry {
  client: ServiceClient;
  usedAt: number;
}

/**
 * One service client per server: Guilds limits each server on its own, so each has its own rate
 * limiter, cache and circuit breaker. Made when first needed and dropped when idle, so a thousand
 * quiet servers hold no clients.
 */
export class ServiceClients {
  /** Least recently used first, so the idle ones lead. */
  readonly #clients: BoundedMap<string, Entry>;

  constructor(private readonly options: ServiceClientsOptions) {
    this.#clients = new BoundedMap({ max: options.max ?? 1_000, order: 'used', now: options.now });
  }

  get size(): number {
    return this.#clients.size;
  }

  forServer(guildId: string): ServiceClient {
    const now = (this.options.now ?? Date.now)();
    const entry = this.#clients.get(guildId);
    if (entry) {
      entry.usedAt = now;
      return entry.client;
    }
    this.#sweep(now);
    const client = createServiceClient({
      ...this.options.shared,
      credentials: () => this.options.credentials(guildId),
    });
    this.#clients.set(guildId, { client, usedAt: now });
    return client;
  }

  existing(guildId: string): ServiceClient | undefined {
    return this.#clients.peek(guildId)?.client;
  }

  /** A server's credentials changed or it was reset: its next call starts afresh. */
  forget(guildId: string): void {
    this.#clients.delete(guildId);
  }

  /** Drops the clients idle `idleMs`; past `max`, adding one drops the one idle longest. */
  #sweep(now: number): void {
    const idleMs = this.options.idleMs ?? 15 * 60_000;
    for (const [guildId, entry] of this.#clients) {
      if (now - entry.usedAt < idleMs) break;
      this.#clients.delete(guildId);
    }
  }
}

/**
 * A server's client as its parts hold it: each call asks the pool, so a client dropped while idle
 * is made again on the next call instead of being kept alive by whoever held it.
 */
export function serverClient(clients: ServiceClients, guildId: string): ServiceClient {
  const client = () => clients.forServer(guildId);
  return {
    getVote: (userId, options) => client().getVote(userId, options),
    listVotes: (options) => client().listVotes(options),
    getReview: (userId, options) => client().getReview(userId, options),
    replyToReview: (reviewId, input, options) => client().replyToReview(reviewId, input, options),
    checkConnection: (options) => client().checkConnection(options),
    // Nothing cached without a client: no client is made just to forget.
    forgetMember: (userId) => clients.existing(guildId)?.forgetMember(userId),
  };
}
