import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';
import type { SqliteDriver } from './sqlite-driver.js';
import { sqlStore } from './sql-store.js';
import type { DatabaseTarget } from './database-url.js';
import type { Store } from './types.js';

export { DEFAULT_DATABASE_URL, parseDatabaseUrl, type DatabaseTarget } from './database-url.js';

export type {
  Store,
  StoredEvent,
  FeedPost,
  FeedReview,
  FeedEdit,
  OutgoingPost,
  PostKind,
  ParkedLane,
  WorkCounts,
  FeedAnswer,
  NewVote,
  PendingAnnouncement,
  MirrorEntry,
  MirrorTotals,
  ScheduledExpiry,
  ReminderOptIn,
  ReminderOutcome,
  ReminderRecord,
} from './types.js';

/** Opens the store and brings its schema up to date; a SQLite file through `sqliteDriver` if given (tests). */
export async function openStore(target: DatabaseTarget, sqliteDriver?: SqliteDriver): Promise<Store> {
  const db = target.kind === 'postgres' ? openPostgres(target.url) : openSqlite(target.file, sqliteDriver);
  try {
    return await sqlStore(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}
