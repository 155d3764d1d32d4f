import type { Logger } from '../core/log.js';
import type { StoredEvent } from '../store/index.js';
import type { DeliveryLog } from '../webhooks/delivery-log.js';
import type { HandledOutcome } from './event-route.js';
import type { StoredEventHandler } from './inbox-worker.js';
import type { ServerRuntime } from './running-server.js';
import type { ServerPasses, ServerStartFacts } from './server-passes.js';
import type { Servers } from '../servers/servers.js';

export interface RuntimesOptions {
  servers: Servers;
  /** The process's passes over every server, and what servers need to know to start. */
  passes: Pick<ServerPasses, 'facts'>;
  /** Builds a set-up server's runtime (not started). */
  build: (guildId: string) => ServerRuntime;
  /** Whether the bot is in the server now (the gateway's guild list). */
  inGuild: (guildId: string) => boolean;
  /** Whether this process acts for the server: it runs the server's shard (see shards/ownership.ts). */
  owns: (guildId: string) => boolean;
  /** The servers' delivery logs (/setup status): what handling made of each stored event. */
  deliveries: Pick<DeliveryLog, 'record'>;
  logger: Logger;
}

/**
 * The runtime of every set-up server the bot is in, started once Discord is connected: made when a
 * server is set up or joined, remade when its settings change, stopped when it is reset or left.
 * The inbox worker hands it each stored event, for the server's runtime to route.
 */
export class Runtimes implements StoredEventHandler {
  readonly #running = new Map<string, ServerRuntime>();
  #ready = false;
  /** One change at a time per server, in order. */
  readonly #chains = new Map<string, Promise<void>>();
  /** Read once for every server while startAll starts them; a later start reads its own. */
  #facts: ((guildId: string) => ServerStartFacts) | undefined;

  constructor(private readonly options: RuntimesOptions) {
    options.servers.onChange((guildId) => void this.sync(guildId));
  }

  get size(): number {
    return this.#running.size;
  }

  get(guildId: string): ServerRuntime | undefined {
    return this.#running.get(guildId);
  }

  /** Discord is connected: every set-up server the bot is in starts. */
  async startAll(): Promise<void> {
    this.#ready = true;
    const { servers, inGuild, owns } = this.options;
    const ids = new Set([...servers.known(), ...(servers.environment ? [servers.environment.guildId] : [])]);
    this.#facts = await this.options.passes.facts();
    try {
      await Promise.all([...ids].filter((id) => owns(id) && inGuild(id)).map((guildId) => this.sync(guildId)));
    } finally {
      this.#facts = undefined;
    }
    this.options.logger.info({ servers: this.#running.size }, 'servers started');
  }

  /** Brings one server's runtime in line with its settings and whether the bot is in it. */
  sync(guildId: string): Promise<void> {
    const next = (this.#chains.get(guildId) ?? Promise.resolve()).then(() => this.#sync(guildId));
    const settled = next.catch((err: unknown) =>
      this.options.logger.error({ err, guildId }, 'could not start or stop the work of a server'),
    );
    this.#chains.set(guildId, settled);
    void settled.finally(() => {
      if (this.#chains.get(guildId) === settled) this.#chains.delete(guildId);
    });
    return settled;
  }

  /** A stored event, handled by its server's runtime and written in the server's delivery log. */
  async handle(event: StoredEvent): Promise<void> {
    const outcome = await this.#route(event);
    if (outcome === 'no server')
      this.options.logger.info(
        { guildId: event.guildId, eventId: event.id },
        'webhook event for a server that is not set up; dropped',
      );
    else this.options.deliveries.record({ guildId: event.guildId, at: event.receivedAt, event: event.kind, outcome });
  }

  /**
   * A stored event for its server's runtime. A server set up but not started yet (Discord still
   * connecting) makes the event wait; one not set up, or left, has no one to act on it.
   */
  async #route(event: StoredEvent): Promise<HandledOutcome | 'no server'> {
    // The inbox hands out only this process's servers' events; one of another's is never dropped here.
    if (!this.options.owns(event.guildId)) throw new Error("the server is on another process's shard");
    const runtime = this.#running.get(event.guildId);
    if (runtime) return runtime.handle(event);
    if (this.options.servers.isConfigured(event.guildId) && this.options.inGuild(event.guildId))
      throw new Error('the server is not started yet');
    return 'no server';
  }

  async stopAll(): Promise<void> {
    this.#ready = false;
    await Promise.all([...this.#chains.values()]);
    const running = [...this.#running.values()];
    this.#running.clear();
    await Promise.all(running.map((runtime) => runtime.stop()));
  }

  async #sync(guildId: string): Promise<void> {
    const { servers, inGuild, owns, build, logger } = this.options;
    const current = this.#running.get(guildId);
    if (current) {
      this.#running.delete(guildId);
      await current.stop();
    }
    if (!this.#ready || !owns(guildId) || !servers.isConfigured(guildId) || !inGuild(guildId)) {
      if (current) logger.info({ guildId }, 'server work stopped');
      return;
    }
    const facts = this.#facts ?? (await this.options.passes.facts());
    const runtime = build(guildId);
    this.#running.set(guildId, runtime);
    runtime.start(facts(guildId));
    if (current) logger.info({ guildId }, 'server work restarted with new settings');
    else logger.debug({ guildId }, 'server work started');
  }
}
