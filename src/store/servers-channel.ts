/**
 * The PostgreSQL NOTIFY channel a server's record is announced on when it is saved or forgotten (at
 * commit); the payload is its server id, nothing else. Receivers keep the set of servers that take
 * deliveries by it.
 */
export const SERVERS_CHANNEL = 'vote_review_servers';
