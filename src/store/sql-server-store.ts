import { graceMs, streakAfter } from '../streaks/streak.js';
import { SqlMilestones } from './sql-milestones.js';
import { SqlOutbox, num } from './sql-outbox.js';
import { IDS_PER_STATEMENT, placeholders, ROWS_PER_INSERT, slices, valueRows, type Row } from './sql.js';
import type {
  Milestone,
  MilestoneGrant,
  DeliveryOutcome,
  DeliveryRecord,
  MemberStreak,
  MirrorEntry,
  MirrorTotals,
  NewVote,
  PendingAnnouncement,
  PollRecord,
  ReminderOptIn,
  ReminderOutcome,
  ReminderRecord,
  ScheduledExpiry,
  Store,
} from './types.js';

const MIRROR_TOTALS = 'mirror_totals';
const LAST_POLL = 'last_poll';
const DAY_MS = 86_400_000;

/** One server's votes, mirror, expiries and reminders (and, from SqlOutbox, its feed and posts). */
export class SqlServerStore extends SqlOutbox implements Store {
  readonly #milestones = new SqlMilestones(this.db, this.guildId);

  get backend() {
    return this.db.dialect;
  }

  get driver() {
    return this.db.driver;
  }

  async acceptVote(vote: NewVote): Promise<boolean> {
    return (await this.acceptVotes([vote])).length > 0;
  }

  async acceptVotes(votes: readonly NewVote[]): Promise<string[]> {
    const accepted: string[] = [];
    // A transaction per slice keeps each statement's list of members inside the parameter limits.
    for (const slice of slices(votes, IDS_PER_STATEMENT)) accepted.push(...(await this.#acceptSlice(slice)));
    return accepted;
  }

  #acceptSlice(votes: readonly NewVote[]): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const users = [...new Set(votes.map((vote) => vote.userId))].sort();
      const list = placeholders(users.length, 2);
      // Two PostgreSQL sessions could both see "no vote this period" and both insert: one member at
      // a time, taken in one order (a lock on the table made every server's votes wait for each other).
      if (tx.dialect === 'postgres')
        await tx.query(
          `SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM (VALUES ${valueRows(users.length, 1, 1)}) AS t(k) ORDER BY k`,
          users.map((userId) => `votes ${this.guildId} ${userId}`),
        );
      const last = new Map(
        (
          await this.query(
            `SELECT id, user_id, source, streak, period_ends_at FROM (
               SELECT id, user_id, source, streak, period_ends_at,
                 ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY period_ends_at DESC, id DESC) AS latest
               FROM votes WHERE guild_id = $1 AND user_id IN (${list})) AS ranked
             WHERE latest = 1`,
            users,
            tx,
          )
        ).map((row) => [
          String(row.user_id),
          {
            id: num(row.id),
            source: String(row.source),
            streak: num(row.streak),
            periodEndsAt: num(row.period_ends_at),
          },
        ]),
      );
      const fresh = new Map<string, NewVote>();
      const claimed = new Map<string, { id: number; double: boolean }>();
      for (const vote of votes) {
        if (fresh.has(vote.userId) || claimed.has(vote.userId)) continue;
        const prior = last.get(vote.userId);
        if (prior === undefined || prior.periodEndsAt <= vote.at) fresh.set(vote.userId, vote);
        // The first poll can list a vote cast as the bot started, before its delivery came in: the
        // delivery is that vote's announcement and knows whether it was double, so it takes the row over.
        else if (prior.source === 'seed' && vote.source === 'webhook')
          claimed.set(vote.userId, { id: prior.id, double: vote.double });
      }
      for (const [, claim] of claimed)
        await this.query(
          `UPDATE votes SET source = 'webhook', is_double = $3, announced_at = NULL
           WHERE guild_id = $1 AND id = $2 AND source = 'seed'`,
          [claim.id, claim.double ? 1 : 0],
          tx,
        );
      for (const rows of slices([...fresh.values()], ROWS_PER_INSERT)) {
        await this.query(
          `INSERT INTO votes (guild_id, user_id, voted_at, is_double, source, period_ends_at, announced_at, streak)
           VALUES ${valueRows(rows.length, 7, 2, '$1')}`,
          rows.flatMap((vote) => [
            vote.userId,
            vote.at,
            vote.double ? 1 : 0,
            vote.source,
            vote.periodEndsAt,
            vote.source === 'seed' ? vote.at : null,
            streakAfter(last.get(vote.userId), vote.at, vote.streakGraceMs ?? graceMs(undefined)),
          ]),
          tx,
        );
      }
      return [...fresh.keys(), ...claimed.keys()];
    });
  }

  async setPeriodEnd(userId: string, at: number, periodEndsAt: number): Promise<void> {
    await this.query(
      'UPDATE votes SET period_ends_at = $4 WHERE guild_id = $1 AND user_id = $2 AND period_ends_at > $3',
      [userId, at, periodEndsAt],
    );
  }

  async runningVotes(at: number): Promise<Map<string, number>> {
    const rows = await this.query(
      'SELECT user_id, period_ends_at FROM votes WHERE guild_id = $1 AND period_ends_at > $2',
      [at],
    );
    return new Map(rows.map((row) => [String(row.user_id), num(row.period_ends_at)]));
  }

  async unconfirmedVoters(now: number, periodMs: number): Promise<string[]> {
    const rows = await this.query(
      `SELECT DISTINCT user_id FROM votes
       WHERE guild_id = $1 AND source = 'webhook' AND period_ends_at > $2 AND period_ends_at - voted_at = $3`,
      [now, periodMs],
    );
    return rows.map((row) => String(row.user_id));
  }

  async waitingVotes(limit: number): Promise<PendingAnnouncement[]> {
    const rows = await this.query(
      `SELECT id, user_id, is_double, voted_at, streak FROM votes
       WHERE guild_id = $1 AND announced_at IS NULL AND post_id IS NULL ORDER BY id LIMIT $2`,
      [limit],
    );
    if (rows.length === 0) return [];
    const counts = await this.#countsUpTo(rows.map((row) => ({ id: num(row.id), at: num(row.voted_at) })));
    return rows.map((row) => {
      const id = num(row.id);
      const count = counts.get(id);
      return {
        id,
        userId: String(row.user_id),
        double: num(row.is_double) === 1,
        at: num(row.voted_at),
        streak: num(row.streak),
        first: (count?.earlier ?? 0) === 0,
        monthVotes: count?.month ?? 0,
        totalVotes: count?.total ?? 0,
      };
    });
  }

  /**
   * For each vote: the member's votes before it (any source), and their counted votes up to it, in
   * its calendar month and in all. One query per month the votes fall in (nearly always one).
   */
  async #countsUpTo(
    votes: ReadonlyArray<{ id: number; at: number }>,
  ): Promise<Map<number, { earlier: number; month: number; total: number }>> {
    const byMonth = new Map<number, number[]>();
    for (const vote of votes) {
      const day = new Date(vote.at);
      const start = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1);
      byMonth.set(start, [...(byMonth.get(start) ?? []), vote.id]);
    }
    const counted = `CASE WHEN p.source = 'seed' THEN 0 WHEN p.is_double = 1 THEN 2 ELSE 1 END`;
    const counts = new Map<number, { earlier: number; month: number; total: number }>();
    for (const [monthStart, ids] of byMonth) {
      const list = placeholders(ids.length, 3);
      const rows = await this.query(
        `SELECT v.id,
           SUM(CASE WHEN p.voted_at < v.voted_at THEN 1 ELSE 0 END) AS earlier,
           SUM(CASE WHEN p.voted_at >= $2 THEN ${counted} ELSE 0 END) AS month,
           SUM(${counted}) AS total
         FROM votes v JOIN votes p ON p.guild_id = v.guild_id AND p.user_id = v.user_id AND p.voted_at <= v.voted_at
         WHERE v.guild_id = $1 AND v.id IN (${list})
         GROUP BY v.id`,
        [monthStart, ...ids],
      );
      for (const row of rows)
        counts.set(num(row.id), { earlier: num(row.earlier), month: num(row.month), total: num(row.total) });
    }
    return counts;
  }

  async markAnnounced(ids: readonly number[], messageId: string | null, at: number): Promise<void> {
    if (ids.length === 0) return;
    const list = placeholders(ids.length, 4);
    await this.query(`UPDATE votes SET announced_at = $2, message_id = $3 WHERE guild_id = $1 AND id IN (${list})`, [
      at,
      messageId,
      ...ids,
    ]);
  }

  async countingSince(): Promise<number> {
    const [server] = await this.query('SELECT created_at FROM servers WHERE guild_id = $1');
    if (server) return num(server.created_at);
    // A server with no record yet (a test's store): counted since the store was made.
    const [row] = await this.db.query('SELECT applied_at FROM schema_migrations WHERE version = 1');
    return num(row!.applied_at);
  }

  async votesBetween(from: number, to: number): Promise<Array<{ userId: string; votes: number }>> {
    const rows = await this.query(
      `SELECT user_id, SUM(CASE WHEN is_double = 1 THEN 2 ELSE 1 END) AS votes FROM votes
       WHERE guild_id = $1 AND voted_at >= $2 AND voted_at < $3 AND source <> 'seed'
       GROUP BY user_id ORDER BY votes DESC, user_id`,
      [from, to],
    );
    return rows.map((row) => ({ userId: String(row.user_id), votes: num(row.votes) }));
  }

  async streakOf(userId: string, now: number, graceMs: number): Promise<number> {
    const [row] = await this.query(
      'SELECT MAX(streak) AS streak FROM votes WHERE guild_id = $1 AND user_id = $2 AND period_ends_at >= $3',
      [userId, now - graceMs],
    );
    return row?.streak === null || row?.streak === undefined ? 0 : num(row.streak);
  }

  async latestStreaks(since: number): Promise<Array<MemberStreak & { periodEndsAt: number }>> {
    // Among a member's votes still in the window the latest has both maxima: a vote that broke a
    // streak came after the grace of the one before, which is then out of any window reaching it.
    const rows = await this.query(
      `SELECT user_id, MAX(streak) AS streak, MAX(period_ends_at) AS period_ends_at FROM votes
       WHERE guild_id = $1 AND period_ends_at >= $2 GROUP BY user_id`,
      [since],
    );
    return rows.map((row) => ({
      userId: String(row.user_id),
      streak: num(row.streak),
      periodEndsAt: num(row.period_ends_at),
    }));
  }

  async votesPerDay(from: number, days: number): Promise<number[]> {
    const rows = await this.query(
      // SQLite binds a JS number as REAL, so the division is cut to whole days explicitly.
      `SELECT CAST((voted_at - $2) / ${DAY_MS} AS INTEGER) AS day, SUM(CASE WHEN is_double = 1 THEN 2 ELSE 1 END) AS votes FROM votes
       WHERE guild_id = $1 AND voted_at >= $2 AND voted_at < $3 AND source <> 'seed'
       GROUP BY day`,
      [from, from + days * DAY_MS],
    );
    const perDay = Array.from({ length: days }, () => 0);
    for (const row of rows) perDay[num(row.day)] = num(row.votes);
    return perDay;
  }

  async ratingCounts(): Promise<Array<{ rating: number; reviews: number }>> {
    const rows = await this.query(
      'SELECT rating, COUNT(*) AS reviews FROM feed_posts WHERE guild_id = $1 GROUP BY rating ORDER BY rating',
    );
    return rows.map((row) => ({ rating: num(row.rating), reviews: num(row.reviews) }));
  }

  replaceMirror(entries: readonly MirrorEntry[], totals: MirrorTotals): Promise<void> {
    return this.db.transaction(async (tx) => {
      await this.query('DELETE FROM vote_mirror WHERE guild_id = $1', [], tx);
      // Many rows a statement: a row each made a poll of a busy server hundreds of round trips.
      for (const rows of slices(entries, ROWS_PER_INSERT)) {
        await this.query(
          `INSERT INTO vote_mirror (guild_id, user_id, expires_at, via_discord) VALUES ${valueRows(rows.length, 3, 2, '$1')}`,
          rows.flatMap((entry) => [entry.userId, entry.expiresAt, entry.viaDiscord ? 1 : 0]),
          tx,
        );
      }
      await this.query(
        `INSERT INTO server_state (guild_id, key, value) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value`,
        [MIRROR_TOTALS, JSON.stringify(totals)],
        tx,
      );
    });
  }

  async setMirrorEntry(userId: string, entry: MirrorEntry | null): Promise<void> {
    if (entry === null) {
      await this.query('DELETE FROM vote_mirror WHERE guild_id = $1 AND user_id = $2', [userId]);
      return;
    }
    await this.query(
      `INSERT INTO vote_mirror (guild_id, user_id, expires_at, via_discord) VALUES ($1, $2, $3, $4)
       ON CONFLICT (guild_id, user_id) DO UPDATE SET expires_at = excluded.expires_at, via_discord = excluded.via_discord`,
      [userId, entry.expiresAt, entry.viaDiscord ? 1 : 0],
    );
  }

  async mirrorEntry(userId: string): Promise<MirrorEntry | undefined> {
    const [row] = await this.query(
      'SELECT user_id, expires_at, via_discord FROM vote_mirror WHERE guild_id = $1 AND user_id = $2',
      [userId],
    );
    return row && toMirrorEntry(row);
  }

  async mirrorTotals(): Promise<MirrorTotals | undefined> {
    const [row] = await this.query('SELECT value FROM server_state WHERE guild_id = $1 AND key = $2', [MIRROR_TOTALS]);
    return row && (JSON.parse(String(row.value)) as MirrorTotals);
  }

  async lastDeliveryAt(): Promise<number | undefined> {
    const [row] = await this.query('SELECT MAX(received_at) AS last FROM events WHERE guild_id = $1');
    return row?.last === null || row?.last === undefined ? undefined : num(row.last);
  }

  async recentDeliveries(limit: number): Promise<DeliveryRecord[]> {
    const rows = await this.query(
      'SELECT at, event, outcome FROM deliveries WHERE guild_id = $1 ORDER BY at DESC, id DESC LIMIT $2',
      [limit],
    );
    return rows.map((row) => ({
      guildId: this.guildId,
      at: num(row.at),
      event: String(row.event),
      outcome: String(row.outcome) as DeliveryOutcome,
    }));
  }

  async recordPoll(poll: PollRecord): Promise<void> {
    await this.query(
      `INSERT INTO server_state (guild_id, key, value) VALUES ($1, $2, $3)
       ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value`,
      [LAST_POLL, JSON.stringify(poll)],
    );
  }

  async lastPoll(): Promise<PollRecord | undefined> {
    const [row] = await this.query('SELECT value FROM server_state WHERE guild_id = $1 AND key = $2', [LAST_POLL]);
    return row && (JSON.parse(String(row.value)) as PollRecord);
  }

  async mirrorEntries(): Promise<MirrorEntry[]> {
    const rows = await this.query(
      'SELECT user_id, expires_at, via_discord FROM vote_mirror WHERE guild_id = $1 ORDER BY user_id',
    );
    return rows.map(toMirrorEntry);
  }

  async scheduleExpiry(userId: string, endsAt: number): Promise<void> {
    await this.scheduleExpiries([{ userId, endsAt }]);
  }

  async scheduleExpiries(ends: readonly ScheduledExpiry[]): Promise<void> {
    // One row per member: PostgreSQL refuses a statement that updates a row twice.
    const rows = [...new Map(ends.map((end) => [end.userId, end.endsAt]))];
    for (const slice of slices(rows, ROWS_PER_INSERT)) {
      await this.query(
        `INSERT INTO vote_expiries (guild_id, user_id, ends_at)
         VALUES ${valueRows(slice.length, 2, 2, '$1')}
         ON CONFLICT (guild_id, user_id) DO UPDATE SET ends_at = excluded.ends_at`,
        slice.flat(),
      );
    }
  }

  async rescheduleExpiry(userId: string, endsAt: number): Promise<number | undefined> {
    if (this.db.dialect === 'postgres') {
      // One round trip per delivered vote: a statement's CTE reads the row as it was before the
      // statement's own upsert.
      const [row] = await this.query(
        `WITH before AS (SELECT ends_at FROM vote_expiries WHERE guild_id = $1 AND user_id = $2),
           written AS (INSERT INTO vote_expiries (guild_id, user_id, ends_at) VALUES ($1, $2, $3)
             ON CONFLICT (guild_id, user_id) DO UPDATE SET ends_at = excluded.ends_at)
         SELECT ends_at FROM before`,
        [userId, endsAt],
      );
      return row ? num(row.ends_at) : undefined;
    }
    // SQLite has no writes in a WITH; its statements cost no round trip.
    const before = await this.scheduledExpiry(userId);
    await this.scheduleExpiry(userId, endsAt);
    return before?.endsAt;
  }

  async dueExpiries(now: number, limit: number): Promise<ScheduledExpiry[]> {
    const rows = await this.query(
      `SELECT user_id, ends_at FROM vote_expiries WHERE guild_id = $1 AND ends_at <= $2
       ORDER BY ends_at, user_id LIMIT $3`,
      [now, limit],
    );
    return rows.map(toExpiry);
  }

  async nextExpiryAt(): Promise<number | undefined> {
    const [row] = await this.query('SELECT MIN(ends_at) AS next FROM vote_expiries WHERE guild_id = $1');
    return row?.next === null || row?.next === undefined ? undefined : num(row.next);
  }

  async clearExpiry(userId: string, endsAt: number): Promise<void> {
    await this.query('DELETE FROM vote_expiries WHERE guild_id = $1 AND user_id = $2 AND ends_at = $3', [
      userId,
      endsAt,
    ]);
  }

  async scheduledExpiry(userId: string): Promise<ScheduledExpiry | undefined> {
    const [row] = await this.query('SELECT user_id, ends_at FROM vote_expiries WHERE guild_id = $1 AND user_id = $2', [
      userId,
    ]);
    return row && toExpiry(row);
  }

  async scheduledExpiries(): Promise<Map<string, number>> {
    const rows = await this.query('SELECT user_id, ends_at FROM vote_expiries WHERE guild_id = $1');
    return new Map(rows.map((row) => [String(row.user_id), num(row.ends_at)]));
  }

  async scheduledExpiriesOf(userIds: readonly string[]): Promise<Map<string, number>> {
    const ends = new Map<string, number>();
    for (const slice of slices(userIds, IDS_PER_STATEMENT)) {
      const rows = await this.query(
        `SELECT user_id, ends_at FROM vote_expiries WHERE guild_id = $1 AND user_id IN (${placeholders(slice.length, 2)})`,
        slice,
      );
      for (const row of rows) ends.set(String(row.user_id), num(row.ends_at));
    }
    return ends;
  }

  async optInReminders(userId: string, locale: string, at: number): Promise<void> {
    await this.query(
      `INSERT INTO reminder_optins (guild_id, user_id, locale, opted_in_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (guild_id, user_id) DO UPDATE SET locale = excluded.locale`,
      [userId, locale, at],
    );
  }

  async optOutReminders(userId: string): Promise<boolean> {
    const rows = await this.query(
      'DELETE FROM reminder_optins WHERE guild_id = $1 AND user_id = $2 RETURNING user_id',
      [userId],
    );
    return rows.length > 0;
  }

  async reminderOptIn(userId: string): Promise<ReminderOptIn | undefined> {
    const [row] = await this.query(
      'SELECT user_id, locale, opted_in_at FROM reminder_optins WHERE guild_id = $1 AND user_id = $2',
      [userId],
    );
    return row && { userId: String(row.user_id), locale: String(row.locale), since: num(row.opted_in_at) };
  }

  async claimReminder(userId: string, endsAt: number, at: number, notBefore: number): Promise<boolean> {
    // One statement: the check and the claim cannot be split by a second pass over the same expiry.
    const rows = await this.query(
      `INSERT INTO reminders_sent (guild_id, user_id, ends_at, at, outcome) VALUES ($1, $2, $3, $4, 'pending')
       ON CONFLICT (guild_id, user_id) DO UPDATE SET ends_at = excluded.ends_at, at = excluded.at, outcome = excluded.outcome
       WHERE reminders_sent.ends_at < $5
       RETURNING user_id`,
      [userId, endsAt, at, notBefore],
    );
    return rows.length > 0;
  }

  async settleReminder(userId: string, endsAt: number, outcome: Exclude<ReminderOutcome, 'pending'>): Promise<void> {
    await this.query('UPDATE reminders_sent SET outcome = $4 WHERE guild_id = $1 AND user_id = $2 AND ends_at = $3', [
      userId,
      endsAt,
      outcome,
    ]);
  }

  async releaseReminder(userId: string, endsAt: number): Promise<void> {
    await this.query(
      `DELETE FROM reminders_sent WHERE guild_id = $1 AND user_id = $2 AND ends_at = $3 AND outcome = 'pending'`,
      [userId, endsAt],
    );
  }

  async lastReminder(userId: string): Promise<ReminderRecord | undefined> {
    const [row] = await this.query(
      'SELECT user_id, ends_at, at, outcome FROM reminders_sent WHERE guild_id = $1 AND user_id = $2',
      [userId],
    );
    return (
      row && {
        userId: String(row.user_id),
        endsAt: num(row.ends_at),
        at: num(row.at),
        outcome: String(row.outcome) as ReminderOutcome,
      }
    );
  }

  milestones(): Promise<Milestone[]> {
    return this.#milestones.milestones();
  }
  setMilestone(milestone: Omit<Milestone, 'parked'>): Promise<void> {
    return this.#milestones.setMilestone(milestone);
  }
  removeMilestone(roleId: string): Promise<boolean> {
    return this.#milestones.removeMilestone(roleId);
  }
  parkMilestone(roleId: string, reason: string): Promise<boolean> {
    return this.#milestones.parkMilestone(roleId, reason);
  }
  unparkMilestone(roleId: string): Promise<boolean> {
    return this.#milestones.unparkMilestone(roleId);
  }
  milestoneGrants(): Promise<MilestoneGrant[]> {
    return this.#milestones.milestoneGrants();
  }
  recordMilestoneGrant(grant: MilestoneGrant): Promise<void> {
    return this.#milestones.recordMilestoneGrant(grant);
  }
  dropMilestoneGrant(roleId: string, userId: string, month: string): Promise<void> {
    return this.#milestones.dropMilestoneGrant(roleId, userId, month);
  }
}

function toExpiry(row: Row): ScheduledExpiry {
  return { userId: String(row.user_id), endsAt: num(row.ends_at) };
}

function toMirrorEntry(row: Row): MirrorEntry {
  return { userId: String(row.user_id), expiresAt: num(row.expires_at), viaDiscord: num(row.via_discord) === 1 };
}
