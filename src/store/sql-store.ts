import { currentVersion, migrate } from './migrations.js';
import { num, SqlOutbox } from './sql-outbox.js';
import type { Db, Row } from './sql.js';
import type {
  MirrorEntry,
  MirrorTotals,
  NewVote,
  PendingAnnouncement,
  ReminderOptIn,
  ReminderOutcome,
  ReminderRecord,
  ScheduledExpiry,
  StoredEvent,
  Store,
} from './types.js';

const MIRROR_TOTALS = 'mirror_totals';

/** The store over either backend; opens by running any pending migrations. */
export async function sqlStore(db: Db): Promise<Store> {
  await migrate(db);
  return new SqlStore(db);
}

class SqlStore extends SqlOutbox implements Store {
  constructor(db: Db) {
    super(db);
  }

  get backend() {
    return this.db.dialect;
  }

  get driver() {
    return this.db.driver;
  }

  schemaVersion() {
    return currentVersion(this.db);
  }

  async addEvent(kind: string, payload: unknown, receivedAt: number): Promise<number> {
    const [row] = await this.db.query(
      'INSERT INTO events (kind, payload, received_at) VALUES ($1, $2, $3) RETURNING id',
      [kind, JSON.stringify(payload), receivedAt],
    );
    return num(row!.id);
  }

  async pendingEvents(limit: number, now = Number.MAX_SAFE_INTEGER): Promise<StoredEvent[]> {
    const rows = await this.db.query(
      `SELECT id, kind, payload, received_at, attempts FROM events WHERE handled_at IS NULL AND next_at <= $2
       ORDER BY id LIMIT $1`,
      [limit, now],
    );
    return rows.map((row) => ({
      id: num(row.id),
      kind: String(row.kind),
      payload: JSON.parse(String(row.payload)) as unknown,
      receivedAt: num(row.received_at),
      attempts: num(row.attempts),
    }));
  }

  async deferEvent(id: number, attempts: number, nextAt: number): Promise<void> {
    await this.db.query('UPDATE events SET attempts = $2, next_at = $3 WHERE id = $1', [id, attempts, nextAt]);
  }

  async nextEventDue(): Promise<number | undefined> {
    const [row] = await this.db.query('SELECT MIN(next_at) AS next FROM events WHERE handled_at IS NULL');
    return row?.next === null || row?.next === undefined ? undefined : num(row.next);
  }

  async markEventHandled(id: number, at: number): Promise<void> {
    await this.db.query('UPDATE events SET handled_at = $2 WHERE id = $1', [id, at]);
  }

  acceptVote(vote: NewVote): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // Without it two PostgreSQL sessions could both see "no vote this period" and both insert.
      if (tx.dialect === 'postgres') await tx.query('LOCK TABLE votes IN SHARE ROW EXCLUSIVE MODE');
      const running = await tx.query('SELECT 1 FROM votes WHERE user_id = $1 AND period_ends_at > $2 LIMIT 1', [
        vote.userId,
        vote.at,
      ]);
      if (running.length > 0) return false;
      await tx.query(
        'INSERT INTO votes (user_id, voted_at, is_double, source, period_ends_at, announced_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [
          vote.userId,
          vote.at,
          vote.double ? 1 : 0,
          vote.source,
          vote.periodEndsAt,
          vote.source === 'seed' ? vote.at : null,
        ],
      );
      return true;
    });
  }

  async setPeriodEnd(userId: string, at: number, periodEndsAt: number): Promise<void> {
    await this.db.query('UPDATE votes SET period_ends_at = $3 WHERE user_id = $1 AND period_ends_at > $2', [
      userId,
      at,
      periodEndsAt,
    ]);
  }

  async waitingVotes(limit: number): Promise<PendingAnnouncement[]> {
    const rows = await this.db.query(
      `SELECT id, user_id, is_double, voted_at FROM votes WHERE announced_at IS NULL AND post_id IS NULL
       ORDER BY id LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({
      id: num(row.id),
      userId: String(row.user_id),
      double: num(row.is_double) === 1,
      at: num(row.voted_at),
    }));
  }

  async markAnnounced(ids: readonly number[], messageId: string | null, at: number): Promise<void> {
    if (ids.length === 0) return;
    const list = ids.map((_, i) => `$${i + 3}`).join(', ');
    await this.db.query(`UPDATE votes SET announced_at = $1, message_id = $2 WHERE id IN (${list})`, [
      at,
      messageId,
      ...ids,
    ]);
  }

  async countingSince(): Promise<number> {
    const [row] = await this.db.query('SELECT applied_at FROM schema_migrations WHERE version = 1');
    return num(row!.applied_at);
  }

  async votesBetween(from: number, to: number): Promise<Array<{ userId: string; votes: number }>> {
    const rows = await this.db.query(
      `SELECT user_id, SUM(CASE WHEN is_double = 1 THEN 2 ELSE 1 END) AS votes FROM votes
       WHERE voted_at >= $1 AND voted_at < $2 AND source <> 'seed' GROUP BY user_id ORDER BY votes DESC, user_id`,
      [from, to],
    );
    return rows.map((row) => ({ userId: String(row.user_id), votes: num(row.votes) }));
  }

  replaceMirror(entries: readonly MirrorEntry[], totals: MirrorTotals): Promise<void> {
    return this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM vote_mirror');
      for (const entry of entries) {
        await tx.query('INSERT INTO vote_mirror (user_id, expires_at, via_discord) VALUES ($1, $2, $3)', [
          entry.userId,
          entry.expiresAt,
          entry.viaDiscord ? 1 : 0,
        ]);
      }
      await tx.query(
        'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        [MIRROR_TOTALS, JSON.stringify(totals)],
      );
    });
  }

  async setMirrorEntry(userId: string, entry: MirrorEntry | null): Promise<void> {
    if (entry === null) {
      await this.db.query('DELETE FROM vote_mirror WHERE user_id = $1', [userId]);
      return;
    }
    await this.db.query(
      `INSERT INTO vote_mirror (user_id, expires_at, via_discord) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET expires_at = excluded.expires_at, via_discord = excluded.via_discord`,
      [userId, entry.expiresAt, entry.viaDiscord ? 1 : 0],
    );
  }

  async mirrorEntry(userId: string): Promise<MirrorEntry | undefined> {
    const [row] = await this.db.query('SELECT user_id, expires_at, via_discord FROM vote_mirror WHERE user_id = $1', [
      userId,
    ]);
    return (
      row && { userId: String(row.user_id), expiresAt: num(row.expires_at), viaDiscord: num(row.via_discord) === 1 }
    );
  }

  async mirrorTotals(): Promise<MirrorTotals | undefined> {
    const [row] = await this.db.query('SELECT value FROM settings WHERE key = $1', [MIRROR_TOTALS]);
    return row && (JSON.parse(String(row.value)) as MirrorTotals);
  }

  async mirrorEntries(): Promise<MirrorEntry[]> {
    const rows = await this.db.query('SELECT user_id, expires_at, via_discord FROM vote_mirror ORDER BY user_id');
    return rows.map((row) => ({
      userId: String(row.user_id),
      expiresAt: num(row.expires_at),
      viaDiscord: num(row.via_discord) === 1,
    }));
  }

  async scheduleExpiry(userId: string, endsAt: number): Promise<void> {
    await this.db.query(
      `INSERT INTO vote_expiries (user_id, ends_at) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET ends_at = excluded.ends_at`,
      [userId, endsAt],
    );
  }

  async dueExpiries(now: number, limit: number): Promise<ScheduledExpiry[]> {
    const rows = await this.db.query(
      'SELECT user_id, ends_at FROM vote_expiries WHERE ends_at <= $1 ORDER BY ends_at, user_id LIMIT $2',
      [now, limit],
    );
    return rows.map(toExpiry);
  }

  async nextExpiryAt(): Promise<number | undefined> {
    const [row] = await this.db.query('SELECT MIN(ends_at) AS next FROM vote_expiries');
    return row?.next === null || row?.next === undefined ? undefined : num(row.next);
  }

  async clearExpiry(userId: string, endsAt: number): Promise<void> {
    await this.db.query('DELETE FROM vote_expiries WHERE user_id = $1 AND ends_at = $2', [userId, endsAt]);
  }

  async scheduledExpiry(userId: string): Promise<ScheduledExpiry | undefined> {
    const [row] = await this.db.query('SELECT user_id, ends_at FROM vote_expiries WHERE user_id = $1', [userId]);
    return row && toExpiry(row);
  }

  async optInReminders(userId: string, locale: string, at: number): Promise<void> {
    await this.db.query(
      `INSERT INTO reminder_optins (user_id, locale, opted_in_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale`,
      [userId, locale, at],
    );
  }

  async optOutReminders(userId: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM reminder_optins WHERE user_id = $1 RETURNING user_id', [userId]);
    return rows.length > 0;
  }

  async reminderOptIn(userId: string): Promise<ReminderOptIn | undefined> {
    const [row] = await this.db.query('SELECT user_id, locale, opted_in_at FROM reminder_optins WHERE user_id = $1', [
      userId,
    ]);
    return row && { userId: String(row.user_id), locale: String(row.locale), since: num(row.opted_in_at) };
  }

  async claimReminder(userId: string, endsAt: number, at: number, notBefore: number): Promise<boolean> {
    // One statement: the check and the claim cannot be split by a second pass over the same expiry.
    const rows = await this.db.query(
      `INSERT INTO reminders_sent (user_id, ends_at, at, outcome) VALUES ($1, $2, $3, 'pending')
       ON CONFLICT (user_id) DO UPDATE SET ends_at = excluded.ends_at, at = excluded.at, outcome = excluded.outcome
       WHERE reminders_sent.ends_at < $4
       RETURNING user_id`,
      [userId, endsAt, at, notBefore],
    );
    return rows.length > 0;
  }

  async settleReminder(userId: string, endsAt: number, outcome: Exclude<ReminderOutcome, 'pending'>): Promise<void> {
    await this.db.query('UPDATE reminders_sent SET outcome = $3 WHERE user_id = $1 AND ends_at = $2', [
      userId,
      endsAt,
      outcome,
    ]);
  }

  async releaseReminder(userId: string, endsAt: number): Promise<void> {
    await this.db.query(`DELETE FROM reminders_sent WHERE user_id = $1 AND ends_at = $2 AND outcome = 'pending'`, [
      userId,
      endsAt,
    ]);
  }

  async lastReminder(userId: string): Promise<ReminderRecord | undefined> {
    const [row] = await this.db.query('SELECT user_id, ends_at, at, outcome FROM reminders_sent WHERE user_id = $1', [
      userId,
    ]);
    return (
      row && {
        userId: String(row.user_id),
        endsAt: num(row.ends_at),
        at: num(row.at),
        outcome: String(row.outcome) as ReminderOutcome,
      }
    );
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

function toExpiry(row: Row): ScheduledExpiry {
  return { userId: String(row.user_id), endsAt: num(row.ends_at) };
}
