import { graceMs, streakAfter } from '../streaks/streak.js';
import type { StatsStore, StreakStore, VoteLedger } from './ports.js';
import { IDS_PER_STATEMENT, num, optionalNum, placeholders, ROWS_PER_INSERT, slices, valueRows } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { MemberStreak, NewVote, PendingAnnouncement } from './types.js';

const DAY_MS = 86_400_000;

/**
 * One server's recorded votes (votes): one per member per vote period, the streak each made, and
 * whether it is announced. When the server's counting began is the servers table's (sql-servers.ts).
 */
export function sqlVotes<Base extends ServerScopedClass>(base: Base) {
  return class SqlVotes
    extends base
    implements Omit<VoteLedger, 'countingSince'>, StreakStore, Omit<StatsStore, 'ratingCounts'>
  {
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
      return optionalNum(row?.streak) ?? 0;
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
  };
}
