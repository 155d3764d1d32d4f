import type { Config } from '../config/bot.js';
import { serveHealthOnly } from '../hosting/health-only.js';
import type { Phase } from '../hosting/index.js';
import type { Logger } from '../core/log.js';
import type { ShardSet } from '../shards/ownership.js';
import { formatShardIds } from '../shards/shard-ids.js';
import { describeDatabase, holdStore, type StoreLock } from '../store/index.js';

export interface BecomeActiveOptions {
  config: Config;
  /** The shards this process runs: on PostgreSQL each is held by one process at a time. */
  shards: ShardSet;
  logger: Logger;
  phase: () => Phase;
  setPhase: (phase: Phase) => void;
  /** The lock is gone while this process acts: another may act by now, so this one must stop. */
  onLost: (error: unknown) => void;
}

/**
 * Resolves once this process is the one that acts on the store; only then may it log in to Discord
 * and start background work, so no interaction or event is handled by two processes. On SQLite
 * that is at once, or never (the start fails: another process holds the file). On PostgreSQL the
 * process may first wait as a standby, with /healthz on METRICS_PORT answering 200 `standby`
 * (503 `starting` while the database cannot be reached) until the full server takes the port.
 */
export async function becomeActive({
  config,
  shards,
  logger,
  phase,
  setPhase,
  onLost,
}: BecomeActiveOptions): Promise<StoreLock> {
  const store = describeDatabase(config.database);
  const shardIds = formatShardIds(shards.ids);
  const waiting =
    config.metricsPort === undefined
      ? undefined
      : await serveHealthOnly({ port: config.metricsPort, host: config.metricsHost, setting: 'METRICS_PORT', phase });
  try {
    const lock = await holdStore(config.database, {
      shards,
      onStandby(reason) {
        if (reason.kind === 'held') {
          setPhase('standby');
          logger.info(
            { store, shards: shardIds, reason: reason.detail },
            'standby: another process holds the store for these shards; this one takes over when it stops',
          );
        } else if (reason.kind === 'count') {
          setPhase('standby');
          // A mistyped SHARD_COUNT waits for ever unless someone reads this: it says what to change.
          logger.warn(
            { store, shards: shardIds, reason: reason.detail },
            'standby: another process runs another SHARD_COUNT; set one SHARD_COUNT everywhere',
          );
        } else {
          setPhase('starting');
          logger.warn(
            { store, reason: reason.detail, retryInMs: reason.retryInMs },
            'store not reachable; trying again',
          );
        }
      },
      onLost,
      onInterrupted(event) {
        if (event.kind === 'dropped')
          logger.warn(
            { store, err: event.error },
            'the store lock connection dropped (the database restarted or went away); taking it back when it answers',
          );
        else logger.info({ store, afterMs: event.afterMs }, 'store lock taken back: this process goes on acting');
      },
    });
    setPhase('starting');
    logger.info({ store, shards: shardIds }, 'store lock held: this process is the active one');
    return lock;
  } finally {
    await waiting?.close();
  }
}
