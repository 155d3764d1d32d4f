import type { Guild, GuildMember } from 'discord.js';

/** Discord answers a gateway member request (op 8) for at most 100 user ids. */
export const IDS_PER_REQUEST = 100;
/**
 * Discord closes a gateway connection (4008) past 120 sends in 60 s. Member requests take at most
 * this many of them, leaving the rest to heartbeats and presence updates.
 */
const REQUESTS_PER_WINDOW = 100;
const WINDOW_MS = 60_000;
/** How long the gateway may take to answer one request; a caller that cannot wait this long races its own bound. */
const ANSWER_MS = 15_000;

interface Waiting {
  resolve: (member: GuildMember | undefined) => void;
  reject: (err: unknown) => void;
}

interface GuildQueue {
  guild: Guild;
  /**
   * Ids not yet sent, each with the promise every asker of it shares. (A request already out is not
   * joined: the gateway may have lost it, and a new one costs only a paced send.)
   */
  queued: Map<string, Promise<GuildMember | undefined>>;
  waiting: Map<string, Waiting>;
  pumping: boolean;
}

/**
 * Members by id over the gateway (op 8: asking by ids needs no privileged intent). What is asked of
 * one guild while a request waits to go is sent together, 100 ids to a request, and requests go no
 * faster than the connection's send limit allows: names and roles share one budget, so a burst of
 * lookups queues instead of getting the connection closed or every request timed out.
 */
export class GatewayMembers {
  readonly #guilds = new Map<string, GuildQueue>();
  /** Send times per gateway connection (client and shard), newest last. */
  readonly #sends = new WeakMap<object, Map<number, number[]>>();

  constructor(
    private readonly perWindow = REQUESTS_PER_WINDOW,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /**
   * The members among `ids`; one who left the server is absent. Rejects when the gateway did not
   * answer in time (the caller cannot tell who left then).
   */
  async fetch(guild: Guild, ids: readonly string[]): Promise<Map<string, GuildMember>> {
    const queue = this.#queue(guild);
    const asked = [...new Set(ids)].map((id) => [id, this.#enqueue(queue, id)] as const);
    const found = new Map<string, GuildMember>();
    for (const [id, member] of asked) {
      const got = await member;
      if (got !== undefined) found.set(id, got);
    }
    return found;
  }

  #queue(guild: Guild): GuildQueue {
    let queue = this.#guilds.get(guild.id);
    if (queue === undefined) {
      queue = { guild, queued: new Map(), waiting: new Map(), pumping: false };
      this.#guilds.set(guild.id, queue);
    }
    queue.guild = guild;
    return queue;
  }

  #enqueue(queue: GuildQueue, id: string): Promise<GuildMember | undefined> {
    let member = queue.queued.get(id);
    if (member !== undefined) return member;
    member = new Promise((resolve, reject) => queue.waiting.set(id, { resolve, reject }));
    // Every asker awaits it; marked handled so a caller that stopped waiting leaves no unhandled rejection.
    member.catch(() => undefined);
    queue.queued.set(id, member);
    if (!queue.pumping) {
      queue.pumping = true;
      // Asks made in this turn of the event loop share the first request.
      setImmediate(() => void this.#pump(queue));
    }
    return member;
  }

  async #pump(queue: GuildQueue): Promise<void> {
    while (queue.queued.size > 0) {
      await this.#slot(queue.guild);
      const batch = [...queue.queued].slice(0, IDS_PER_REQUEST);
      const waiting = new Map<string, Waiting>();
      for (const [id] of batch) {
        queue.queued.delete(id);
        waiting.set(id, queue.waiting.get(id)!);
        queue.waiting.delete(id);
      }
      void this.#send(queue, waiting);
    }
    queue.pumping = false;
  }

  async #send(queue: GuildQueue, waiting: ReadonlyMap<string, Waiting>): Promise<void> {
    try {
      // A destroyed client's shard send rejects where nobody can catch it: ask nothing of it.
      if (!queue.guild.client.isReady()) throw new Error('the gateway is not connected');
      const members = await queue.guild.members.fetch({ user: [...waiting.keys()], time: ANSWER_MS });
      for (const [id, asker] of waiting) asker.resolve(members.get(id));
    } catch (err) {
      for (const asker of waiting.values()) asker.reject(err);
    }
  }

  /** Waits until the guild's gateway connection may send one more request, and counts it. */
  async #slot(guild: Guild): Promise<void> {
    let shards = this.#sends.get(guild.client);
    if (shards === undefined) this.#sends.set(guild.client, (shards = new Map()));
    let sends = shards.get(guild.shardId);
    if (sends === undefined) shards.set(guild.shardId, (sends = []));
    for (;;) {
      const at = Date.now();
      while (sends.length > 0 && sends[0]! <= at - this.windowMs) sends.shift();
      if (sends.length < this.perWindow) {
        sends.push(at);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, sends[0]! + this.windowMs - at + 1).unref());
    }
  }
}
