import { nextSnowflake } from './snowflake.js';

/** Discord's rule for which shard receives a guild's events: `(guild_id >> 22) % shard_count`. */
export function shardOf(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

let onShardMade = 0n;

/**
 * A new guild id that lands on `shard` of `shardCount`: a fresh snowflake's time moved back at most
 * `shardCount - 1` ms, with a worker id and counter of its own so no two collide.
 */
export function guildIdOnShard(shard: number, shardCount: number): string {
  const ms = BigInt(nextSnowflake()) >> 22n;
  const back = (((ms - BigInt(shard)) % BigInt(shardCount)) + BigInt(shardCount)) % BigInt(shardCount);
  onShardMade += 1n;
  return (((ms - back) << 22n) | (1n << 16n) | (onShardMade & 0xffffn)).toString();
}

/** How far apart Discord lets identifies in one `max_concurrency` bucket be. */
export const IDENTIFY_WINDOW_MS = 5_000;

export interface IdentifyRecord {
  shard: [number, number];
  at: number;
  /** `shard_id % max_concurrency`: identifies in one bucket must be IDENTIFY_WINDOW_MS apart. */
  bucket: number;
  /** This identify came sooner than the window after the one before it in its bucket. */
  tooSoon: boolean;
}

/**
 * Records identifies the way Discord paces them: one per `max_concurrency` bucket per window.
 * Discord would answer one too soon with an invalid session; the stand-in lets it in and counts it,
 * so a test or the bench can assert that a client (or several processes) never did it.
 */
export class IdentifyPacing {
  readonly records: IdentifyRecord[] = [];
  readonly #lastInBucket = new Map<number, number>();

  constructor(
    private readonly maxConcurrency: () => number,
    private readonly windowMs: number,
  ) {}

  get violations(): number {
    return this.records.filter((record) => record.tooSoon).length;
  }

  record(shard: [number, number], at: number): IdentifyRecord {
    const bucket = shard[0] % this.maxConcurrency();
    const last = this.#lastInBucket.get(bucket);
    const record = { shard, at, bucket, tooSoon: last !== undefined && at - last < this.windowMs };
    this.#lastInBucket.set(bucket, at);
    this.records.push(record);
    return record;
  }
}
