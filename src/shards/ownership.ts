/** The shards this process runs, out of how many the bot has. */
export interface ShardSet {
  readonly count: number;
  readonly ids: readonly number[];
}

/** Discord's rule for which shard carries a guild's events: `(guild_id >> 22) % shard_count`. */
export function shardOf(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

/**
 * Which servers this process acts for: those on the shards it runs. Everything a server's state
 * drives (its runtime, its stored webhook events) asks here, so no two processes act for one server.
 */
export class ShardOwnership implements ShardSet {
  readonly #ids: ReadonlySet<number>;

  constructor(
    readonly count: number,
    readonly ids: readonly number[],
  ) {
    this.#ids = new Set(ids);
  }

  /** One process running every shard: it owns every server. */
  static everything(count = 1): ShardOwnership {
    return new ShardOwnership(
      count,
      Array.from({ length: count }, (_, i) => i),
    );
  }

  get ownsAll(): boolean {
    return this.#ids.size === this.count;
  }

  owns(guildId: string): boolean {
    return this.ownsAll || this.#ids.has(shardOf(guildId, this.count));
  }
}
