import { currentVersion, migrate, storeCreatedAt } from './migrations.js';
import { sqlApiKeys } from './sql-api-keys.js';
import type { Store } from './ports.js';
import type { StoreRoot } from './root-ports.js';
import { num, type Db } from './sql.js';
import { sqlDeliveryLog } from './sql-deliveries.js';
import { sqlEvents } from './sql-events.js';
import { sqlForwardDestinations } from './sql-forward-destinations.js';
import { sqlForwardOutbox } from './sql-forward-outbox.js';
import { sqlHandledInteractions } from './sql-handled-interactions.js';
import { sqlListings } from './sql-listings.js';
import { AllServers } from './sql-scoped.js';
import { SqlServerStore } from './sql-server-store.js';
import { sqlServers } from './sql-servers.js';
import { sqlSignOuts } from './sql-sign-outs.js';
import { sqlSweeps } from './sql-sweeps.js';
import { sqlTopggRecovery } from './sql-topgg-recovery.js';
import type { WorkCounts } from './root-types.js';

/** The store over either backend; opens by running any pending migrations. */
export async function sqlStore(db: Db): Promise<StoreRoot> {
  await migrate(db);
  return new SqlStoreRoot(db);
}

/** The store as a whole: each table's statements (a file each), and one server's store by `forServer`. */
class SqlStoreRoot
  extends sqlApiKeys(
    sqlTopggRecovery(
      sqlForwardOutbox(
        sqlForwardDestinations(
          sqlHandledInteractions(
            sqlSignOuts(sqlSweeps(sqlListings(sqlEvents(sqlDeliveryLog(sqlServers(AllServers)))))),
          ),
        ),
      ),
    ),
  )
  implements StoreRoot
{
  schemaVersion() {
    return currentVersion(this.db);
  }

  createdAt(): Promise<number> {
    return storeCreatedAt(this.db);
  }

  forServer(guildId: string): Store {
    return new SqlServerStore(this.db, guildId);
  }

  async workCounts(): Promise<WorkCounts> {
    const [row] = await this.db.query(
      `SELECT
         (SELECT COUNT(*) FROM events WHERE handled_at IS NULL) AS events,
         (SELECT COUNT(*) FROM votes WHERE announced_at IS NULL) AS votes,
         (SELECT COUNT(*) FROM feed_posts WHERE message_id IS NULL) AS reviews,
         (SELECT COUNT(*) FROM feed_posts WHERE edit_due > 0 AND message_id IS NOT NULL) AS edits,
         (SELECT COUNT(*) FROM parked_lanes) AS parked_lanes,
         (SELECT COUNT(*) FROM posts WHERE parked IS NOT NULL) AS parked_posts`,
    );
    return {
      events: num(row!.events),
      votes: num(row!.votes),
      reviews: num(row!.reviews),
      edits: num(row!.edits),
      parkedLanes: num(row!.parked_lanes),
      parkedPosts: num(row!.parked_posts),
    };
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
