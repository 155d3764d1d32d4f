/** The PostgreSQL NOTIFY channel a stored webhook event is announced on; the payload is its server id, nothing else. */
export const INBOX_CHANNEL = 'vote_review_inbox';
