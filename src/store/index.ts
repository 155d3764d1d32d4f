import { postgresStoreError } from './postgres-faults.js';
import { openSqlite } from './sqlite.js';
import type { SqliteDriver } from './sqlite-connection.js';
import { sqliteStoreError } from './sqlite-faults.js';
import { lockSqliteFile } from './sqlite-lock.js';
import { sqlStore } from './sql-store.js';
import type { DatabaseTarget } from './database-url.js';
import { causeText, StoreError } from './store-error.js';
import type { HoldOptions, StoreLock } from './store-lock.js';
import type { StoreRoot } from './root-ports.js';

export { describeDatabase, parseDatabaseUrl, type DatabaseTarget } from './database-url.js';
export { StoreError } from './store-error.js';
export type { HoldOptions, StandbyReason, StoreLock } from './store-lock.js';

// Every port (ports.ts for one server's rows, root-ports.ts for every server's): a module takes the ones it uses.
export type * from './ports.js';
export type * from './root-ports.js';

export { GUILDS_SITE, VOTE_WEIGHTS } from './types.js';
export { isRefusedOutcome, newestOfEachWindow } from './delivery-windows.js';

export type {
  DueExpiryOf,
  SweepCursor,
  WaitingWork,
  FeedReview,
  FeedEdit,
  OutgoingPost,
  FeedAnswer,
  PollRecord,
  UnansweredPage,
  NewVote,
  VoteSite,
  PendingAnnouncement,
  RunningListVote,
  LedgerVote,
  MemberStreak,
  MirrorEntry,
  ScheduledExpiry,
  ReminderOutcome,
  ReminderRecord,
  Milestone,
  MilestonePeriod,
} from './types.js';
export type {
  SealedKeyUse,
  ListingRecord,
  ServerRecord,
  ServerSettingsRecord,
  StoredEvent,
  NewEvent,
  WorkCounts,
  DeliveryOutcome,
  DeliveryRecord,
  TopggRecoveryState,
  DueForward,
  ForwardDestinationRecord,
  ForwardResult,
  InteractionClaim,
} from './root-types.js';

/**
 * Opens the store and brings its schema up to date; a SQLite file through `sqliteDriver` if given
 * (tests). A failure is a StoreError naming DATABASE_URL and the cause (a damaged SQLite file among them).
 */
export async function openStore(
  target: DatabaseTarget,
  sqliteDriver?: SqliteDriver,
  options: { poolSize?: number } = {},
): Promise<StoreRoot> {
  try {
    // pg is loaded only by a store that uses it: a SQLite bot's memory holds none of it.
    const db =
      target.kind === 'postgres'
        ? (await import('./postgres.js')).openPostgres(target.url, options.poolSize)
        : openSqlite(target.file, sqliteDriver);
    try {
      return await sqlStore(db);
    } catch (error) {
      await db.close().catch(() => undefined);
      throw error;
    }
  } catch (error) {
    throw storeOpenError(error, target);
  }
}

/**
 * Makes this process the one that acts on the store (see sqlite-lock.ts and postgres-lock.ts): on
 * SQLite at once or not at all; on PostgreSQL after waiting as a standby for as long as another holds it.
 */
export async function holdStore(
  target: DatabaseTarget,
  options: HoldOptions,
  sqliteDriver?: SqliteDriver,
): Promise<StoreLock> {
  if (target.kind === 'postgres') return (await import('./postgres-lock.js')).holdPostgresLock(target.url, options);
  // An in-memory database is private to this process already.
  if (target.file === ':memory:') return { release: async () => undefined };
  return lockSqliteFile(target.file, sqliteDriver);
}

export function storeOpenError(error: unknown, target: DatabaseTarget): StoreError {
  if (target.kind === 'postgres') return postgresStoreError(error, target.url);
  const known = sqliteStoreError(error, target.file);
  if (known instanceof StoreError) return known;
  return new StoreError(`Could not open the store ${target.file} (DATABASE_URL): ${causeText(error)}.`, undefined, {
    cause: error,
  });
}
