import { DEFAULT_STREAK_GRACE_HOURS } from '../streaks/streak.js';
import type { Db } from './sql.js';

const DEFAULT_GRACE_MS = DEFAULT_STREAK_GRACE_HOURS * 3_600_000;

export interface Migration {
  version: number;
  name: string;
  /** Statements in portable SQL; `{id}` becomes each backend's auto-increment key. */
  statements: readonly string[];
}

/** Append only: a released migration never changes, a later one alters what it made. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'events, feed posts, votes, announcements, mirror',
    statements: [
      `CREATE TABLE events (
        id {id},
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        received_at BIGINT NOT NULL,
        handled_at BIGINT
      )`,
      `CREATE INDEX events_pending ON events (id) WHERE handled_at IS NULL`,
      `CREATE TABLE feed_posts (
        review_id TEXT PRIMARY KEY,
        author_id TEXT NOT NULL,
        rating INTEGER NOT NULL,
        content TEXT NOT NULL,
        received_at BIGINT NOT NULL,
        channel_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        answered_at BIGINT,
        reply_id TEXT,
        answered_by TEXT
      )`,
      `CREATE TABLE votes (
        id {id},
        user_id TEXT NOT NULL,
        voted_at BIGINT NOT NULL,
        is_double INTEGER NOT NULL,
        source TEXT NOT NULL,
        period_ends_at BIGINT NOT NULL,
        announced_at BIGINT,
        message_id TEXT
      )`,
      `CREATE INDEX votes_member_period ON votes (user_id, period_ends_at)`,
      `CREATE INDEX votes_time ON votes (voted_at)`,
      `CREATE INDEX votes_unannounced ON votes (id) WHERE announced_at IS NULL`,
      `CREATE TABLE vote_mirror (
        user_id TEXT PRIMARY KEY,
        expires_at BIGINT NOT NULL,
        via_discord INTEGER NOT NULL
      )`,
      `CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 2,
    name: 'vote expiry schedule',
    statements: [
      // One row per member whose vote is running: when it ends. The voter role (and reminders) act on it.
      `CREATE TABLE vote_expiries (
        user_id TEXT PRIMARY KEY,
        ends_at BIGINT NOT NULL
      )`,
      `CREATE INDEX vote_expiries_due ON vote_expiries (ends_at)`,
    ],
  },
  {
    version: 3,
    name: 'vote reminders',
    statements: [
      // Members who asked (/remind on) to be told when they can vote again, in the language they asked in.
      `CREATE TABLE reminder_optins (
        user_id TEXT PRIMARY KEY,
        locale TEXT NOT NULL,
        opted_in_at BIGINT NOT NULL
      )`,
      // The latest reminder per member: which vote period it was for, so a period is reminded once.
      `CREATE TABLE reminders_sent (
        user_id TEXT PRIMARY KEY,
        ends_at BIGINT NOT NULL,
        at BIGINT NOT NULL,
        outcome TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 4,
    name: 'outbox: posts fixed before sending, reviews waiting for the feed, early answers, parked lanes',
    statements: [
      // A message on its way to a channel: its body and nonce are fixed before the first try, so a
      // retry after a crash sends the same message, which Discord's nonce then shows once.
      `CREATE TABLE posts (
        id {id},
        channel_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        body TEXT NOT NULL,
        nonce TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        parked TEXT
      )`,
      `CREATE INDEX posts_lane ON posts (channel_id, id)`,
      // Reviews are stored when they arrive and take their channel and message when posted; one
      // message may show several. The old table had both NOT NULL: it is rebuilt.
      `CREATE TABLE feed_posts_v4 (
        review_id TEXT PRIMARY KEY,
        author_id TEXT NOT NULL,
        rating INTEGER NOT NULL,
        content TEXT NOT NULL,
        received_at BIGINT NOT NULL,
        post_id BIGINT,
        channel_id TEXT,
        message_id TEXT,
        answered_at BIGINT,
        reply_id TEXT,
        answered_by TEXT,
        edit_due INTEGER NOT NULL DEFAULT 0
      )`,
      `INSERT INTO feed_posts_v4 (review_id, author_id, rating, content, received_at, channel_id, message_id,
        answered_at, reply_id, answered_by)
       SELECT review_id, author_id, rating, content, received_at, channel_id, message_id, answered_at, reply_id,
        answered_by FROM feed_posts`,
      `DROP TABLE feed_posts`,
      `ALTER TABLE feed_posts_v4 RENAME TO feed_posts`,
      `CREATE INDEX feed_posts_waiting ON feed_posts (received_at) WHERE post_id IS NULL AND message_id IS NULL`,
      `CREATE INDEX feed_posts_message ON feed_posts (message_id)`,
      `CREATE INDEX feed_posts_edits ON feed_posts (channel_id) WHERE edit_due > 0`,
      // A reply Guilds reported before the review itself: applied when the review comes.
      `CREATE TABLE early_answers (
        review_id TEXT PRIMARY KEY,
        reply_id TEXT,
        answered_by TEXT,
        answered_at BIGINT NOT NULL
      )`,
      `ALTER TABLE votes ADD COLUMN post_id BIGINT`,
      `DROP INDEX votes_unannounced`,
      `CREATE INDEX votes_waiting ON votes (id) WHERE announced_at IS NULL AND post_id IS NULL`,
      `CREATE INDEX votes_post ON votes (post_id) WHERE post_id IS NOT NULL`,
      // An event whose handling failed waits until next_at; it is never given up.
      `ALTER TABLE events ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0`,
      `ALTER TABLE events ADD COLUMN next_at BIGINT NOT NULL DEFAULT 0`,
      // A channel Discord refuses (missing access, unknown channel): reported once, probed until fixed.
      `CREATE TABLE parked_lanes (
        channel_id TEXT PRIMARY KEY,
        reason TEXT NOT NULL,
        code INTEGER NOT NULL,
        parked_at BIGINT NOT NULL
      )`,
    ],
  },
  {
    version: 6,
    name: 'many servers: a server id on every row; servers with their settings and sealed secrets',
    // Rows written before this belong to no server (guild_id ''); a single-server start adopts them
    // (adoptUnowned), so a store of the previous release keeps everything.
    statements: [
      `CREATE TABLE servers (
        guild_id TEXT PRIMARY KEY,
        settings TEXT NOT NULL,
        api_key TEXT,
        app_id TEXT,
        webhook_token TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        left_at BIGINT
      )`,
      `ALTER TABLE events ADD COLUMN guild_id TEXT NOT NULL DEFAULT ''`,
      // /setup webhook and status show a server's last delivery.
      `CREATE INDEX events_server_received ON events (guild_id, received_at)`,
      `ALTER TABLE posts ADD COLUMN guild_id TEXT NOT NULL DEFAULT ''`,
      `ALTER TABLE parked_lanes ADD COLUMN guild_id TEXT NOT NULL DEFAULT ''`,
      `ALTER TABLE votes ADD COLUMN guild_id TEXT NOT NULL DEFAULT ''`,
      `DROP INDEX votes_member_period`,
      `DROP INDEX votes_time`,
      `DROP INDEX votes_waiting`,
      `CREATE INDEX votes_member_period ON votes (guild_id, user_id, period_ends_at)`,
      `CREATE INDEX votes_time ON votes (guild_id, voted_at)`,
      `CREATE INDEX votes_waiting ON votes (guild_id, id) WHERE announced_at IS NULL AND post_id IS NULL`,
      ...rebuild(
        'feed_posts',
        `review_id TEXT NOT NULL, author_id TEXT NOT NULL, rating INTEGER NOT NULL, content TEXT NOT NULL,
         received_at BIGINT NOT NULL, post_id BIGINT, channel_id TEXT, message_id TEXT, answered_at BIGINT,
         reply_id TEXT, answered_by TEXT, edit_due INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (guild_id, review_id)`,
        'review_id, author_id, rating, content, received_at, post_id, channel_id, message_id, answered_at, reply_id, answered_by, edit_due',
      ),
      `CREATE INDEX feed_posts_waiting ON feed_posts (guild_id, received_at) WHERE post_id IS NULL AND message_id IS NULL`,
      `CREATE INDEX feed_posts_message ON feed_posts (message_id)`,
      `CREATE INDEX feed_posts_edits ON feed_posts (channel_id) WHERE edit_due > 0`,
      ...rebuild(
        'early_answers',
        `review_id TEXT NOT NULL, reply_id TEXT, answered_by TEXT, answered_at BIGINT NOT NULL,
         PRIMARY KEY (guild_id, review_id)`,
        'review_id, reply_id, answered_by, answered_at',
      ),
      ...rebuild(
        'vote_mirror',
        `user_id TEXT NOT NULL, expires_at BIGINT NOT NULL, via_discord INTEGER NOT NULL, PRIMARY KEY (guild_id, user_id)`,
        'user_id, expires_at, via_discord',
      ),
      ...rebuild(
        'vote_expiries',
        `user_id TEXT NOT NULL, ends_at BIGINT NOT NULL, PRIMARY KEY (guild_id, user_id)`,
        'user_id, ends_at',
      ),
      `CREATE INDEX vote_expiries_due ON vote_expiries (guild_id, ends_at)`,
      ...rebuild(
        'reminder_optins',
        `user_id TEXT NOT NULL, locale TEXT NOT NULL, opted_in_at BIGINT NOT NULL, PRIMARY KEY (guild_id, user_id)`,
        'user_id, locale, opted_in_at',
      ),
      ...rebuild(
        'reminders_sent',
        `user_id TEXT NOT NULL, ends_at BIGINT NOT NULL, at BIGINT NOT NULL, outcome TEXT NOT NULL,
         PRIMARY KEY (guild_id, user_id)`,
        'user_id, ends_at, at, outcome',
      ),
      // Per-server state (the mirror's totals): the old key-value table becomes one keyed by server.
      `CREATE TABLE server_state (
        guild_id TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (guild_id, key)
      )`,
      `INSERT INTO server_state (guild_id, key, value) SELECT '', key, value FROM settings`,
      `DROP TABLE settings`,
    ],
  },
  {
    version: 7,
    name: 'vote streaks: each recorded vote keeps the streak it made, rebuilt for the votes recorded before',
    // The streak rule (src/streaks/merged-timeline.ts, on one list) in SQL, with the default grace: no server had
    // set its own before this. Each member's votes in order, each one more than the last when it
    // came within the grace after the last one's period ran out.
    statements: [
      `ALTER TABLE votes ADD COLUMN streak INTEGER NOT NULL DEFAULT 1`,
      `CREATE INDEX votes_period_end ON votes (guild_id, period_ends_at)`,
      `CREATE TABLE streak_order AS
        SELECT id, guild_id, user_id, voted_at, period_ends_at,
          ROW_NUMBER() OVER (PARTITION BY guild_id, user_id ORDER BY voted_at, id) AS n
        FROM votes`,
      `CREATE INDEX streak_order_member ON streak_order (guild_id, user_id, n)`,
      `CREATE TABLE streak_chain AS
        WITH RECURSIVE chain (id, guild_id, user_id, n, period_ends_at, streak) AS (
          SELECT id, guild_id, user_id, n, period_ends_at, 1 FROM streak_order WHERE n = 1
          UNION ALL
          SELECT o.id, o.guild_id, o.user_id, o.n, o.period_ends_at,
            CASE WHEN o.voted_at <= c.period_ends_at + ${DEFAULT_GRACE_MS} THEN c.streak + 1 ELSE 1 END
          FROM streak_order o JOIN chain c ON o.guild_id = c.guild_id AND o.user_id = c.user_id AND o.n = c.n + 1
        )
        SELECT id, streak FROM chain`,
      `CREATE INDEX streak_chain_id ON streak_chain (id)`,
      `UPDATE votes SET streak = COALESCE((SELECT streak FROM streak_chain WHERE streak_chain.id = votes.id), 1)`,
      `DROP TABLE streak_chain`,
      `DROP TABLE streak_order`,
    ],
  },
  {
    version: 8,
    name: 'milestone roles: the milestones a server set, and who holds a role for which month',
    statements: [
      // One milestone per role: a role given by two rules could not be taken back by one of them.
      `CREATE TABLE milestones (
        guild_id TEXT NOT NULL,
        role_id TEXT NOT NULL,
        votes INTEGER NOT NULL,
        period TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        parked TEXT,
        PRIMARY KEY (guild_id, role_id)
      )`,
      // Who got a role and for which month ('' for all time): without the privileged members intent
      // the bot cannot list a role's holders, so what it gave is what it can take back.
      `CREATE TABLE milestone_grants (
        guild_id TEXT NOT NULL,
        role_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        month TEXT NOT NULL,
        granted_at BIGINT NOT NULL,
        PRIMARY KEY (guild_id, role_id, user_id)
      )`,
    ],
  },
  {
    version: 9,
    name: 'delivery log: the newest webhook deliveries per server and their outcome',
    statements: [
      // What /setup status shows an admin: when, which event kind, what became of it. Never a body or
      // a token. Written in batches off the receiver's path and trimmed to the newest rows per server.
      `CREATE TABLE deliveries (
        id {id},
        guild_id TEXT NOT NULL,
        at BIGINT NOT NULL,
        event TEXT NOT NULL,
        outcome TEXT NOT NULL
      )`,
      `CREATE INDEX deliveries_server ON deliveries (guild_id, at)`,
      // /reviews pending: a server's reviews with no reply yet, oldest first.
      `CREATE INDEX feed_posts_unanswered ON feed_posts (guild_id, received_at) WHERE answered_at IS NULL`,
    ],
  },
  {
    version: 10,
    name: 'one ledger: each vote keeps its list, the list id for it (if any), and its weight',
    statements: [
      // Every vote recorded so far was on Guilds.
      `ALTER TABLE votes ADD COLUMN site TEXT NOT NULL DEFAULT 'guilds'`,
      // Null where the list gives no id: such repeats are told apart by list, member and period.
      `ALTER TABLE votes ADD COLUMN site_event_id TEXT`,
      // What the vote counts as. is_double stays written beside it, so a reader not yet switched counts right.
      `ALTER TABLE votes ADD COLUMN weight INTEGER NOT NULL DEFAULT 1`,
      `UPDATE votes SET weight = 2 WHERE is_double = 1`,
      `CREATE UNIQUE INDEX votes_site_event ON votes (guild_id, site, site_event_id) WHERE site_event_id IS NOT NULL`,
      // /vote's line per list: a member's latest vote on each list.
      `CREATE INDEX votes_member_site ON votes (guild_id, user_id, site, period_ends_at)`,
    ],
  },
  {
    version: 11,
    name: 'listings: the lists besides Guilds each server takes votes from, with their sealed secrets',
    statements: [
      // secret is sealed with the server id as associated data, like the servers' credentials.
      // vote_length_ms null: the site's default. The last deliveries are for /setup status.
      `CREATE TABLE listings (
        guild_id TEXT NOT NULL,
        site TEXT NOT NULL,
        secret TEXT NOT NULL,
        vote_length_ms BIGINT,
        created_at BIGINT NOT NULL,
        last_delivery_at BIGINT,
        last_test_at BIGINT,
        PRIMARY KEY (guild_id, site)
      )`,
    ],
  },
  {
    version: 12,
    name: "reminders per list: the latest reminder per member and per list, the ones before Guilds'",
    // SQLite cannot change a primary key in place: the table is made again, its rows kept as Guilds'.
    statements: [
      `CREATE TABLE reminders_sent_next (
        guild_id TEXT NOT NULL DEFAULT '',
        user_id TEXT NOT NULL,
        site TEXT NOT NULL DEFAULT 'guilds',
        ends_at BIGINT NOT NULL,
        at BIGINT NOT NULL,
        outcome TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id, site)
      )`,
      `INSERT INTO reminders_sent_next (guild_id, user_id, site, ends_at, at, outcome)
       SELECT guild_id, user_id, 'guilds', ends_at, at, outcome FROM reminders_sent`,
      `DROP TABLE reminders_sent`,
      `ALTER TABLE reminders_sent_next RENAME TO reminders_sent`,
    ],
  },
  {
    version: 13,
    name: 'reviews without a rating: a list review that gave none keeps none (it was stored as 0)',
    // SQLite cannot drop a NOT NULL in place: the table is made again with its rows and indexes. Not
    // feed_posts_next: PostgreSQL keeps that name's key from migration 6 on the table it became.
    statements: [
      `CREATE TABLE feed_posts_v13 (
        guild_id TEXT NOT NULL DEFAULT '',
        review_id TEXT NOT NULL,
        author_id TEXT NOT NULL,
        rating INTEGER,
        content TEXT NOT NULL,
        received_at BIGINT NOT NULL,
        post_id BIGINT,
        channel_id TEXT,
        message_id TEXT,
        answered_at BIGINT,
        reply_id TEXT,
        answered_by TEXT,
        edit_due INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, review_id)
      )`,
      // Guilds ratings run 1 to 5; a 0 is a discordlist.space review that came without one.
      `INSERT INTO feed_posts_v13 (guild_id, review_id, author_id, rating, content, received_at, post_id, channel_id,
         message_id, answered_at, reply_id, answered_by, edit_due)
       SELECT guild_id, review_id, author_id,
         CASE WHEN rating = 0 AND review_id LIKE 'discordlistspace:%' THEN NULL ELSE rating END,
         content, received_at, post_id, channel_id, message_id, answered_at, reply_id, answered_by, edit_due
       FROM feed_posts`,
      `DROP TABLE feed_posts`,
      `ALTER TABLE feed_posts_v13 RENAME TO feed_posts`,
      `CREATE INDEX feed_posts_waiting ON feed_posts (guild_id, received_at) WHERE post_id IS NULL AND message_id IS NULL`,
      `CREATE INDEX feed_posts_message ON feed_posts (message_id)`,
      `CREATE INDEX feed_posts_edits ON feed_posts (channel_id) WHERE edit_due > 0`,
      `CREATE INDEX feed_posts_unanswered ON feed_posts (guild_id, received_at) WHERE answered_at IS NULL`,
    ],
  },
  {
    version: 14,
    name: 'handled webhook events by when they were handled, for the retention pass',
    statements: [`CREATE INDEX events_handled ON events (handled_at) WHERE handled_at IS NOT NULL`],
  },
  {
    version: 15,
    name: "vote ends over every server by when they end, for a process's one expiry pass",
    statements: [`CREATE INDEX vote_expiries_when ON vote_expiries (ends_at)`],
  },
  {
    version: 16,
    name: "the dashboard's ended sign-ins, kept until they would have expired",
    // A member's sign-in, not a server's row: no guild_id. Kept so a copy of a signed-out cookie
    // opens nothing after a restart or on another dashboard process either.
    statements: [
      `CREATE TABLE dashboard_sign_outs (
        sid TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        until BIGINT NOT NULL
      )`,
      `CREATE INDEX dashboard_sign_outs_until ON dashboard_sign_outs (until)`,
    ],
  },
  {
    version: 17,
    name: 'interactions answered over HTTP, kept while a replay of them would still be accepted',
    // Keyed by the interaction's id alone (Discord's ids are unique); guild_id says whose it was.
    statements: [
      `CREATE TABLE handled_interactions (
        id TEXT PRIMARY KEY,
        guild_id TEXT NOT NULL,
        until BIGINT NOT NULL
      )`,
      `CREATE INDEX handled_interactions_until ON handled_interactions (until)`,
    ],
  },
  {
    version: 18,
    name: 'every recorded vote counts 1 or 2: weights past what any list documents are brought into it',
    // A Top.gg weight was taken up to 2^53-1; about 1,025 such votes overflow SQLite's SUM and made
    // the server's /leaderboard, /stats and announcements fail. Writes now keep to VOTE_WEIGHTS.
    statements: [`UPDATE votes SET weight = 2 WHERE weight > 2`, `UPDATE votes SET weight = 1 WHERE weight < 1`],
  },
  {
    version: 19,
    name: "each list's last delivery and last test, whether /setup listing or LISTING_<SITE>_SECRET set it",
    // Lists set in the environment have no listings row, so their times were kept in memory and
    // a restart showed them ✘. listings.last_delivery_at and last_test_at are no longer written;
    // they stay so the version before can run beside this one during a rolling restart.
    statements: [
      `CREATE TABLE listing_activity (
        guild_id TEXT NOT NULL,
        site TEXT NOT NULL,
        last_delivery_at BIGINT,
        last_test_at BIGINT,
        PRIMARY KEY (guild_id, site)
      )`,
      `INSERT INTO listing_activity (guild_id, site, last_delivery_at, last_test_at)
        SELECT guild_id, site, last_delivery_at, last_test_at FROM listings
        WHERE last_delivery_at IS NOT NULL OR last_test_at IS NOT NULL`,
    ],
  },
  {
    version: 20,
    name: 'reviews the service no longer has, out of the review inbox',
    // A reply to a review the service answers 404 for could never be posted: kept, the review stayed
    // in the inbox for ever.
    statements: [`ALTER TABLE feed_posts ADD COLUMN gone_at BIGINT`],
  },
  {
    version: 21,
    name: "the vote API's keys (hashed, one server each), and the ledger in the order it took votes",
    // key_hash: SHA-256 of the whole key (random, 256 bits: a hash is as good as a slow one), unique
    // over every server, so a request's key finds its one server in one read. last4: what /setup shows.
    statements: [
      `CREATE TABLE api_keys (
        guild_id TEXT NOT NULL,
        name TEXT NOT NULL,
        key_hash TEXT NOT NULL,
        last4 TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        created_by TEXT NOT NULL,
        PRIMARY KEY (guild_id, name)
      )`,
      `CREATE UNIQUE INDEX api_keys_hash ON api_keys (key_hash)`,
      // GET /votes pages a server's ledger by id.
      `CREATE INDEX votes_ledger_order ON votes (guild_id, id)`,
    ],
  },
  {
    version: 22,
    name: "Top.gg votes recovered after downtime: the listing's API token, and what stops its reads",
    // api_token is sealed like the listing's secret. A refused token (401/403) is parked until the
    // token changes (parked_token: a hash of the refused one, never the token); a 429 blocks the
    // token for an hour, kept here so a restart inside that hour does not ask again.
    statements: [
      `ALTER TABLE listings ADD COLUMN api_token TEXT`,
      `CREATE TABLE topgg_recovery (
        guild_id TEXT NOT NULL PRIMARY KEY,
        parked_token TEXT,
        parked_status INTEGER,
        parked_at BIGINT,
        blocked_until BIGINT
      )`,
    ],
  },
  {
    version: 23,
    name: 'vote forwarding: destinations per server, and an outbox of deliveries to them',
    // Self-contained (issue 51): the outbox row is written in the ledger's own transaction, so a
    // vote recorded is a vote forwarded, whatever stops the process before the send.
    statements: [
      `CREATE TABLE forward_destinations (
        guild_id TEXT NOT NULL,
        id TEXT NOT NULL,
        url TEXT NOT NULL,
        secret TEXT,
        secret_end TEXT NOT NULL,
        from_env INTEGER NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        last_at BIGINT,
        last_result TEXT,
        failing_since BIGINT,
        PRIMARY KEY (guild_id, id)
      )`,
      `CREATE TABLE forward_outbox (
        id {id},
        guild_id TEXT NOT NULL,
        destination_id TEXT NOT NULL,
        delivery_id TEXT NOT NULL,
        body TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at BIGINT NOT NULL,
        last_result TEXT,
        created_at BIGINT NOT NULL
      )`,
      `CREATE INDEX forward_outbox_queue ON forward_outbox (guild_id, destination_id, id)`,
    ],
  },
];

/**
 * Statements that rebuild `table` with a leading guild_id column and the given columns and key,
 * keeping its rows (as no server's: ''). SQLite cannot change a primary key in place.
 */
function rebuild(table: string, columns: string, copied: string): string[] {
  return [
    `CREATE TABLE ${table}_next (guild_id TEXT NOT NULL DEFAULT '', ${columns})`,
    `INSERT INTO ${table}_next (guild_id, ${copied}) SELECT '', ${copied} FROM ${table}`,
    `DROP TABLE ${table}`,
    `ALTER TABLE ${table}_next RENAME TO ${table}`,
  ];
}

/** Tables whose rows belong to a server, for adopting and forgetting them. */
export const SERVER_TABLES = [
  'events',
  'posts',
  'parked_lanes',
  'votes',
  'feed_posts',
  'early_answers',
  'vote_mirror',
  'vote_expiries',
  'reminder_optins',
  'reminders_sent',
  'server_state',
  'milestones',
  'milestone_grants',
  'deliveries',
  'listings',
  'listing_activity',
  'api_keys',
  'topgg_recovery',
  'forward_destinations',
  'forward_outbox',
] as const;

const ID_COLUMN = {
  sqlite: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  postgres: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
} as const;

/** Applies every migration newer than the database, each in its own transaction; returns the version. */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<number> {
  await db.transaction(async (tx) => {
    // Processes running different shards start on one PostgreSQL at once, and two concurrent
    // CREATE TABLE IF NOT EXISTS can both try to create it: one at a time ("migr" in ASCII).
    if (tx.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1, 0)', [0x6d696772]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at BIGINT NOT NULL
  )`);
  });
  let current = await currentVersion(db);
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    await db.transaction(async (tx) => {
      // Two bots starting on one PostgreSQL database: the second waits, then finds the work done.
      if (tx.dialect === 'postgres') await tx.query('LOCK TABLE schema_migrations IN EXCLUSIVE MODE');
      if ((await currentVersion(tx)) >= migration.version) return;
      for (const statement of migration.statements) await tx.query(statement.replaceAll('{id}', ID_COLUMN[tx.dialect]));
      await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        Date.now(),
      ]);
    });
    current = migration.version;
  }
  return current;
}

export async function currentVersion(db: Db): Promise<number> {
  const [row] = await db.query('SELECT MAX(version) AS version FROM schema_migrations');
  return Number(row?.version ?? 0);
}

/** When the store was made: when its first migration ran. */
export async function storeCreatedAt(db: Db): Promise<number> {
  const [row] = await db.query('SELECT applied_at FROM schema_migrations WHERE version = 1');
  return Number(row!.applied_at);
}
