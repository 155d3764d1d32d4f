import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';
import { sqlStore } from './sql-store.js';
import type { DatabaseTarget } from './database-url.js';
import type { Store } from './types.js';

export { DEFAULT_DATABASE_URL, parseDatabaseUrl, type DatabaseTarget } from './database-url.js';

export type {
  Store,
  StoredEvent,
  FeedPost,
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

/** Opens the store and brings its schema up to date. */
export async function openStore(target: DatabaseTarget): Promise<Store> {
  const db = target.kind === 'postgres' ? openPostgres(target.url) : openSqlite(target.file);
  try {
    return await sqlStore(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}
