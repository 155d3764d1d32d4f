import pg from 'pg';
import { activeSqliteDriver } from '../../src/store/sqlite-driver.js';
import { pollUntil } from './poll-until.js';
import { ASSUMED_VOTE_PERIOD_MS } from '../../src/mirror/mirror-options.js';
import { GUILDS_SITE } from '../../src/store/types.js';

/** How often a state in the store is read again while waited for: each read opens a connection. */
const STORE_READ_MS = 25;

/**
 * One number a query (no parameters, its value in a column `n`) reads from a running bot's store, a
 * SQLite file (read beside the bot, as the sqlite3 shell may) or PostgreSQL: for a test that waits on
 * a row rather than for a while.
 */
export async function storeCount(databaseUrl: string, sql: string): Promise<number> {
  return Number((await storeRows(databaseUrl, sql))[0]?.n);
}

/** The rows a query (no parameters) reads from a running bot's store, as storeCount reads one number. */
async function storeRows(databaseUrl: string, sql: string): Promise<Array<Record<string, unknown>>> {
  if (databaseUrl.startsWith('file:')) {
    const db = activeSqliteDriver().open(databaseUrl.slice('file:'.length));
    try {
      return db.run(sql, []) as Array<Record<string, unknown>>;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(sql)).rows;
  } finally {
    await client.end();
  }
}

const idList = (userIds: readonly string[]) => {
  if (!userIds.every((id) => /^\d+$/.test(id))) throw new Error('user ids are snowflakes');
  return userIds.map((id) => `'${id}'`).join(', ');
};

/**
 * Which of these members' delivered Guilds votes the store still holds on the assumed 12 hours: a
 * bot took the delivery but did not store when the service says the vote ends (it stopped first).
 */
export async function unconfirmedVoters(databaseUrl: string, userIds: readonly string[]): Promise<string[]> {
  const rows = await storeRows(
    databaseUrl,
    `SELECT DISTINCT user_id FROM votes WHERE site = '${GUILDS_SITE}' AND source = 'webhook'
       AND period_ends_at - voted_at = ${ASSUMED_VOTE_PERIOD_MS} AND user_id IN (${idList(userIds)})`,
  );
  return rows.map((row) => String(row.user_id));
}

/** How many of these members' vote ends the store's schedule holds: an end is cleared once every consumer (voter role, reminder) acted on it. */
const scheduledEnds = (databaseUrl: string, userIds: readonly string[]): Promise<number> =>
  storeCount(databaseUrl, `SELECT count(*) AS n FROM vote_expiries WHERE user_id IN (${idList(userIds)})`);

/** Waits until the store has acted on (and cleared) every vote end of these members. */
export const endsHandled = (databaseUrl: string, userIds: readonly string[], timeoutMs = 20_000): Promise<void> =>
  pollUntil(
    async () => (await scheduledEnds(databaseUrl, userIds)) === 0,
    `the store to have handled the vote ends of ${userIds.length} members`,
    { timeoutMs, everyMs: STORE_READ_MS },
  );

/** Rows a post can still come from: a delivery not handled, a message not sent, a review or vote not posted. */
const WAITING = `SELECT
  (SELECT count(*) FROM events WHERE handled_at IS NULL)
  + (SELECT count(*) FROM posts)
  + (SELECT count(*) FROM feed_posts WHERE message_id IS NULL)
  + (SELECT count(*) FROM votes WHERE announced_at IS NULL AND post_id IS NULL) AS n`;

/**
 * Waits until the store holds no delivery left to handle, no message left to send and no review or
 * vote left to post: from then on nothing delivered before can be posted (again), so a "nothing was
 * posted twice" check can count at once. Every server whose deliveries it holds must have its review
 * and vote channels set (work with nowhere to go waits for ever).
 */
export const storeQuiet = (databaseUrl: string, timeoutMs = 20_000): Promise<void> =>
  pollUntil(
    async () => (await storeCount(databaseUrl, WAITING)) === 0,
    'the store to hold no delivery, message, review or vote still to post',
    { timeoutMs, everyMs: STORE_READ_MS },
  );

/**
 * Waits until no vote period of the member runs by the store's record (test clock): a delivery after
 * it is a new vote. The store has the service's end once the bot asked the service (a moment after
 * the delivery; until then it assumes a long period), so this also waits for that answer.
 */
export const periodsEnded = (databaseUrl: string, userId: string, timeoutMs = 20_000): Promise<void> =>
  pollUntil(
    async () =>
      (await storeCount(
        databaseUrl,
        `SELECT count(*) AS n FROM votes WHERE user_id IN (${idList([userId])}) AND period_ends_at > ${Date.now()}`,
      )) === 0,
    `the vote period of ${userId} to end`,
    { timeoutMs, everyMs: STORE_READ_MS },
  );

/** When the store's schedule has the member's vote end (epoch ms), or undefined when none is scheduled. */
export async function scheduledEnd(databaseUrl: string, userId: string): Promise<number | undefined> {
  const sql = `SELECT max(ends_at) AS n FROM vote_expiries WHERE user_id IN (${idList([userId])})`;
  const end = await storeCount(databaseUrl, sql);
  return Number.isFinite(end) && end > 0 ? end : undefined;
}

/** Waits until the store holds no stored delivery left to handle (each is marked once its work is written). */
export const deliveriesHandled = (databaseUrl: string, timeoutMs = 20_000): Promise<void> =>
  pollUntil(
    async () => (await storeCount(databaseUrl, 'SELECT count(*) AS n FROM events WHERE handled_at IS NULL')) === 0,
    'every stored delivery to be handled',
    { timeoutMs, everyMs: STORE_READ_MS },
  );
