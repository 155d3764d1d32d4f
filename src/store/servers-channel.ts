import type { Db } from './sql.js';

/**
 * The PostgreSQL NOTIFY channel a server's record is announced on when it is saved or forgotten (at
 * commit); the payload is its server id, nothing else. Receivers keep the set of servers that take
 * deliveries by it.
 */
export const SERVERS_CHANNEL = 'vote_review_servers';

/** Tells the receivers in other processes that the server changed, when `tx` commits (never before). */
export async function announceServerChange(tx: Db, guildId: string): Promise<void> {
  if (tx.dialect === 'postgres') await tx.query(`SELECT pg_notify('${SERVERS_CHANNEL}', $1)`, [guildId]);
}
