import type { Store } from './ports.js';
import { sqlServerDeliveries } from './sql-deliveries.js';
import { sqlServerEvents } from './sql-events.js';
import { sqlExpiries } from './sql-expiries.js';
import { sqlMilestones } from './sql-milestones.js';
import { sqlMirror } from './sql-mirror.js';
import { sqlOutbox } from './sql-outbox.js';
import { sqlReminders } from './sql-reminders.js';
import { sqlReviewFeed } from './sql-review-feed.js';
import { ServerScoped } from './sql-scoped.js';
import { sqlServerRecord } from './sql-servers.js';
import { sqlVoteAnnouncements } from './sql-vote-announcements.js';
import { sqlVoteCounts } from './sql-vote-counts.js';
import { sqlVoteFeed } from './sql-vote-feed.js';
import { sqlVotes } from './sql-votes.js';

/** One server's store: each table's statements (a file each), on SQLite and PostgreSQL alike. */
export class SqlServerStore
  extends sqlVotes(
    sqlVoteFeed(
      sqlVoteCounts(
        sqlVoteAnnouncements(
          sqlServerRecord(
            sqlReviewFeed(
              sqlOutbox(
                sqlMirror(sqlServerEvents(sqlServerDeliveries(sqlExpiries(sqlReminders(sqlMilestones(ServerScoped)))))),
              ),
            ),
          ),
        ),
      ),
    ),
  )
  implements Store {}
