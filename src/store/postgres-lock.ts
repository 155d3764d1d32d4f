import pg from 'pg';
import { EXIT_CONFIG } from '../core/exit-codes.js';
import { backoffMs, type BackoffPolicy } from '../work/backoff.js';
import { formatShardIds } from '../shards/shard-ids.js';
import type { ShardSet } from '../shards/ownership.js';
import { postgresStoreError } from './postgres-faults.js';
import type { HoldOptions, StoreLock } from './store-lock.js';

/** A shard's advisory lock key is "vote" in ASCII and the shard id. */
const SHARD_LOCK_CLASS = 0x766f7465;
/** The whole store as one process held it before shards: shard 0 of 1, the same key. */
export const LOCK_KEY = [SHARD_LOCK_CLASS, 0] as const;
/**
 * "shar" in ASCII and the shard count, held shared by every active process: processes that disagree
 * on SHARD_COUNT would disagree on which server is whose, so one never acts beside another count.
 */
const SHARD_COUNT_CLASS = 0x73686172;
const EVERYTHING: ShardSet = { count: 1, ids: [0] };
/** The lock connection's application_name, so an operator can find it in pg_stat_activity. */
export const LOCK_APPLICATION_NAME = 'vote-review-bot store lock';

export interface PostgresLockTiming {
  /** How often a standby asks for the lock: the longest a takeover waits after the holder is gone. */
  pollMs: number;
  /**
   * How often a holder whose connection dropped asks to take the lock back: much more often than a
   * standby asks, so after a database restart the process that was acting goes on acting.
   */
  regainMs: number;
  /** How often the holder's connection is exercised, so a dropped one is noticed without traffic. */
  heartbeatMs: number;
  reconnect: BackoffPolicy;
}

const TIMING: PostgresLockTiming = {
  pollMs: 1_000,
  regainMs: 200,
  heartbeatMs: 5_000,
  reconnect: { baseMs: 500, capMs: 30_000 },
};

/**
 * One active process per shard of a PostgreSQL database: a session advisory lock per shard it runs
 * (`options.shards`; without them the one shard of a bot that runs one process, as before shards),
 * all on one connection of its own, taken all at once or not at all so two processes whose shard
 * ids overlap can never each hold part and wait on the other. Resolves once held. Until then the process is a standby: it asks again every `pollMs`, and
 * reconnects with capped backoff while the server cannot be reached; a refused login or a missing
 * database throws (EXIT_CONFIG), since no retry mends those. PostgreSQL frees the lock the moment
 * the holder's session ends, by shutdown or by death. If the held connection drops, `onLost` is
 * called: another process may hold the lock by then, so the caller must stop acting.
 */
export async function holdPostgresLock(
  url: string,
  options: HoldOptions,
  timing: PostgresLockTiming = TIMING,
): Promise<StoreLock> {
  const { signal } = options;
  let failures = 0;
  let reportedHeld = false;
  let countSeen = false;
  for (;;) {
    signal?.throwIfAborted();
    const client = lockClient(url);
    let dropped: unknown;
    client.on('error', (error) => (dropped ??= error));
    try {
      await client.connect();
      failures = 0;
      for (;;) {
        if (dropped !== undefined) throw dropped;
        const taken = await takeShards(client, options.shards ?? EVERYTHING);
        // Stopped while this probe was out: what it took goes with its session (ended below), never to
        // a caller that stopped waiting.
        signal?.throwIfAborted();
        if (taken === 'held') return watch(client, url, options, timing);
        // Another count seen once may be a waiting process's brief probe; seen twice running, a
        // process acts with it. Only then is it this one's setting to fix rather than a turn to wait.
        const otherCount = typeof taken === 'object';
        if (!reportedHeld && (!otherCount || countSeen)) {
          options.onStandby({ kind: otherCount ? 'count' : 'held', detail: standbyDetail(taken, options.shards) });
          reportedHeld = true;
        }
        countSeen = otherCount;
        // Jittered, so two waiting processes do not keep probing in step and keep seeing each other.
        await sleep(timing.pollMs * (0.75 + Math.random() / 2), signal);
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      signal?.throwIfAborted();
      const failure = postgresStoreError(error, url);
      if (failure.exitCode === EXIT_CONFIG) throw failure;
      failures += 1;
      reportedHeld = false;
      const retryInMs = backoffMs(failures, timing.reconnect);
      options.onStandby({ kind: 'unreachable', detail: failure.message, retryInMs });
      await sleep(retryInMs, signal);
    }
  }
}

function lockClient(url: string): pg.Client {
  return new pg.Client({
    connectionString: url,
    application_name: LOCK_APPLICATION_NAME,
    keepAlive: true,
    connectionTimeoutMillis: 10_000,
  });
}

/**
 * Keeps the held lock: a heartbeat notices a dropped connection; then the lock is asked for again
 * every `regainMs` until the database answers. Taken back: the process goes on acting (nothing could
 * be stored meanwhile). Taken by another process first: `onLost`, and this one must stop.
 */
function watch(first: pg.Client, url: string, options: HoldOptions, timing: PostgresLockTiming): StoreLock {
  let client = first;
  let over = false;
  let heartbeat: NodeJS.Timeout | undefined;
  const keep = (held: pg.Client) => {
    client = held;
    held.removeAllListeners('error');
    held.on('error', dropped);
    held.on('end', () => dropped(new Error('the connection holding the store lock ended')));
    let asking = false;
    // A frozen server leaves the query waiting, and the lock is still ours: only a failure means a drop.
    heartbeat = setInterval(() => {
      if (asking) return;
      asking = true;
      held.query('SELECT 1').then(() => (asking = false), dropped);
    }, timing.heartbeatMs);
    heartbeat.unref();
  };
  let regaining = false;
  function dropped(error: unknown): void {
    if (over || regaining) return;
    regaining = true;
    clearInterval(heartbeat);
    const lostAt = Date.now();
    options.onInterrupted?.({ kind: 'dropped', error });
    void client.end().catch(() => undefined);
    void regain().then(
      (held) => {
        regaining = false;
        if (over) {
          void held?.end().catch(() => undefined);
          return;
        }
        if (held === undefined) {
          over = true;
          options.onLost(new Error('another process took the store lock while the database was away'));
          return;
        }
        keep(held);
        options.onInterrupted?.({ kind: 'regained', afterMs: Date.now() - lostAt });
      },
      (failure: unknown) => {
        over = true;
        options.onLost(failure);
      },
    );
  }
  /** The lock again on a new connection; undefined once another process holds it. */
  const regain = async (): Promise<pg.Client | undefined> => {
    for (;;) {
      if (over) return undefined;
      const next = lockClient(url);
      next.on('error', () => undefined);
      try {
        await next.connect();
        if ((await takeShards(next, options.shards ?? EVERYTHING)) === 'held') return next;
        await next.end().catch(() => undefined);
        return undefined;
      } catch (error) {
        await next.end().catch(() => undefined);
        if (postgresStoreError(error, url).exitCode === EXIT_CONFIG) throw error;
        await sleep(timing.regainMs, undefined);
      }
    }
  };
  keep(first);
  return {
    async release() {
      if (over) return;
      over = true;
      clearInterval(heartbeat);
      client.removeAllListeners('error');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

type Taken = 'held' | 'shard held' | { otherCount: number };

/**
 * Every lock of `shards` on this session, or none: the shared count lock first (refused while
 * another process runs a different SHARD_COUNT), then each shard's lock; any refusal lets go of
 * what was taken. pg_locks shows advisory keys as classid (first key) and objid (second).
 */
async function takeShards(client: pg.Client, shards: ShardSet): Promise<Taken> {
  await client.query('SELECT pg_advisory_lock_shared($1, $2)', [SHARD_COUNT_CLASS, shards.count]);
  const { rows: others } = await client.query<{ count: number }>(
    `SELECT objid::int AS count FROM pg_locks
     WHERE locktype = 'advisory' AND granted AND classid = $1::bigint::oid AND objid <> $2::bigint::oid
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
     LIMIT 1`,
    [SHARD_COUNT_CLASS, shards.count],
  );
  if (others[0]) {
    await client.query('SELECT pg_advisory_unlock_shared($1, $2)', [SHARD_COUNT_CLASS, shards.count]);
    return { otherCount: others[0].count };
  }
  const { rows } = await client.query<{ id: number; held: boolean }>(
    'SELECT id, pg_try_advisory_lock($1, id) AS held FROM unnest($2::int[]) AS id',
    [SHARD_LOCK_CLASS, shards.ids],
  );
  if (rows.every((row) => row.held)) return 'held';
  await client.query('SELECT pg_advisory_unlock_all()');
  return 'shard held';
}

function standbyDetail(taken: Exclude<Taken, 'held'>, shards: ShardSet | undefined): string {
  if (typeof taken === 'object')
    return `another process runs the bot with SHARD_COUNT ${taken.otherCount}, this one with ${shards?.count ?? 1}: this one waits until every process agrees (set one SHARD_COUNT everywhere)`;
  if (!shards) return 'another process holds the store; this one waits and takes over when that one stops';
  return `another process holds the store for some of shards ${formatShardIds(shards.ids)}; this one waits and takes over when that one stops`;
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}
