import type { IIdentifyThrottler } from 'discord.js';
import type pg from 'pg';

/** "iden" in ASCII and the bucket: an identify lock per max_concurrency bucket. */
const IDENTIFY_LOCK_CLASS = 0x6964656e;
/** Discord lets one identify per bucket through every 5 s. */
const IDENTIFY_WINDOW_MS = 5_000;
/**
 * Held this much past the window: discord.js sends the identify some time after the turn is given,
 * and Discord counts from when it arrives. On a loaded host the send came ~300 ms late, so the next
 * process's identify, on time, arrived 4.7 s after it (the stand-in counted a pacing violation).
 */
const SEND_MARGIN_MS = 1_000;
const POLL_MS = 250;
const APPLICATION_NAME = 'vote-review-bot identify pacing';

/**
 * Paces gateway identifies for every process on one PostgreSQL database, as Discord counts them per
 * bot: `max_concurrency` buckets (`shard id % max_concurrency`), one identify per bucket per 5 s.
 * discord.js paces the shards of one process; this makes processes started together wait for each
 * other too. A bucket's advisory lock is taken before an identify and let go 6 s later (the window and
 * a margin). Within the process a queue per bucket does the same (a session's advisory locks do not
 * exclude itself).
 * Should the database not answer, it falls back to pacing this process alone.
 */
export class SharedIdentifyThrottler implements IIdentifyThrottler {
  readonly #tails = new Map<number, Promise<void>>();
  #client: Promise<pg.Client> | undefined;

  constructor(
    private readonly url: string,
    private readonly maxConcurrency: number,
    private readonly windowMs = IDENTIFY_WINDOW_MS,
  ) {}

  waitForIdentify(shardId: number, signal: AbortSignal): Promise<void> {
    const bucket = shardId % this.maxConcurrency;
    let done!: () => void;
    const turn = new Promise<void>((resolve) => (done = resolve));
    const before = this.#tails.get(bucket) ?? Promise.resolve();
    this.#tails.set(bucket, turn);
    return before.then(async () => {
      try {
        const unlock = await this.#take(bucket, signal);
        setTimeout(() => {
          void unlock().finally(done);
        }, this.windowMs + SEND_MARGIN_MS).unref();
      } catch (error) {
        done();
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    const client = await this.#client?.catch(() => undefined);
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** The bucket's lock, waited for; resolves with its release. */
  async #take(bucket: number, signal: AbortSignal): Promise<() => Promise<void>> {
    for (;;) {
      signal.throwIfAborted();
      try {
        const client = await this.#connect();
        const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS held', [
          IDENTIFY_LOCK_CLASS,
          bucket,
        ]);
        if (rows[0]?.held === true)
          return async () => {
            await client
              .query('SELECT pg_advisory_unlock($1, $2)', [IDENTIFY_LOCK_CLASS, bucket])
              .catch(() => undefined);
          };
      } catch {
        this.#client = undefined;
        return async () => undefined;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  #connect(): Promise<pg.Client> {
    this.#client ??= (async () => {
      // pg is loaded by the processes that use PostgreSQL only.
      const { default: pgModule } = await import('pg');
      const client = new pgModule.Client({
        connectionString: this.url,
        application_name: APPLICATION_NAME,
        connectionTimeoutMillis: 5_000,
      });
      client.on('error', () => (this.#client = undefined));
      await client.connect();
      return client;
    })();
    return this.#client;
  }
}
