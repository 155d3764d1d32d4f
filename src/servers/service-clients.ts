import { BoundedMap } from '../core/bounded-map.js';
import {
  createServiceClient,
  type CallOptions,
  type ConnectionCheck,
  type ReplyInput,
  type Reply,
  type Review,
  type ServiceClient,
  type ServiceClientOptions,
  type VoteList,
  type VoteStatus,
} from '../api/index.js';

type SharedClientOptions = Omit<ServiceClientOptions, 'apiKey' | 'appId' | 'credentials'>;

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
 * is made again on the next call instead of being kept alive by whoever held it. A class, not an
 * object of arrow functions: one per server a process runs, its methods shared.
 */
class ServerClient implements ServiceClient {
  constructor(
    private readonly clients: ServiceClients,
    private readonly guildId: string,
  ) {}

  getVote(userId: string, options?: CallOptions): Promise<VoteStatus> {
    return this.clients.forServer(this.guildId).getVote(userId, options);
  }

  listVotes(options?: CallOptions): Promise<VoteList> {
    return this.clients.forServer(this.guildId).listVotes(options);
  }

  getReview(userId: string, options?: CallOptions): Promise<Review | null> {
    return this.clients.forServer(this.guildId).getReview(userId, options);
  }

  replyToReview(reviewId: string, input: ReplyInput, options?: CallOptions): Promise<Reply> {
    return this.clients.forServer(this.guildId).replyToReview(reviewId, input, options);
  }

  checkConnection(options?: CallOptions): Promise<ConnectionCheck> {
    return this.clients.forServer(this.guildId).checkConnection(options);
  }

  /** Nothing cached without a client: no client is made just to forget. */
  forgetMember(userId: string): void {
    this.clients.existing(this.guildId)?.forgetMember(userId);
  }
}

export function serverClient(clients: ServiceClients, guildId: string): ServiceClient {
  return new ServerClient(clients, guildId);
}
