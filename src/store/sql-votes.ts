import { graceMs } from '../streaks/streak.js';
import { streakOnTimeline, type TimelineVote } from '../streaks/merged-timeline.js';
import type { StreakStore, VoteLedger } from './ports.js';
import {
  IDS_PER_STATEMENT,
  num,
  optionalNum,
  placeholders,
  ROWS_PER_INSERT,
  slices,
  valueRows,
  type Db,
} from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import {
  GUILDS_SITE,
  recordedWeight,
  type MemberStreak,
  type NewVote,
  type RunningListVote,
  type VoteSite,
} from './types.js';

/** A lock key safe to write into a statement as it is (a quote or backslash never is). */
const PLAIN_KEY = /^[0-9A-Za-z_ ]+$/;

/** A recorded vote as accepting a new one reads it. */
interface Recorded extends TimelineVote {
  id: number | undefined;
  site: VoteSite;
  source: string;
}

/**
 * One server's recorded votes (votes), on every list it is on: one per member per list per vote
 * period, and the streak each made. Counting them is sql-vote-counts.ts's, announcing them
 * sql-vote-announcements.ts's; when the server's counting began is the servers table's.
 */
export function sqlVotes<Base extends ServerScopedClass>(base: Base) {
  return class SqlVotes
    extends base
    implements
      Pick<
        VoteLedger,
        | 'acceptVote'
        | 'acceptVotes'
        | 'runningVotes'
        | 'runningVotesOf'
        | 'setPeriodEnd'
        | 'setPeriodEnds'
        | 'unconfirmedVoters'
      >,
      StreakStore
  {
    async acceptVote(vote: NewVote): Promise<boolean> {
      return (await this.acceptVotes([vote])).length > 0;
    }

    async acceptVotes(votes: readonly NewVote[]): Promise<string[]> {
      const accepted: string[] = [];
      // Only votes: a test delivery or a review is never one, whatever hands it in.
      const real = votes.filter((vote) => vote.kind === undefined || vote.kind === 'vote');
      // A transaction per slice keeps each statement's list of members inside the parameter limits.
      for (const slice of slices(real, IDS_PER_STATEMENT)) accepted.push(...(await this.#acceptSlice(slice)));
      return accepted;
    }

    #acceptSlice(votes: readonly NewVote[]): Promise<string[]> {
      const users = [...new Set(votes.map((vote) => vote.userId))].sort();
      // Two PostgreSQL sessions could both see "no vote this period" and both insert: one member at
      // a time, taken in one order (a lock on the table made every server's votes wait for each other).
      const keys = users.map((userId) => `votes ${this.guildId} ${userId}`);
      const lock = (rows: string) =>
        `SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM (VALUES ${rows}) AS t(k) ORDER BY k`;
      // Ids are digits: the keys go in the statement itself, which then shares BEGIN's round trip.
      const inline = this.db.dialect === 'postgres' && keys.every((key) => PLAIN_KEY.test(key));
      const opening = inline ? lock(keys.map((key) => `('${key}')`).join(', ')) : undefined;
      return this.db.transaction(async (tx) => {
        if (tx.dialect === 'postgres' && !inline) await tx.query(lock(valueRows(keys.length, 1, 1)), keys);
        const recent = await this.#recentVotes(users, votes, tx);
        const known = await this.#knownEventIds(votes, tx);
        const fresh: Array<NewVote & { site: VoteSite; streak: number }> = [];
        const taken = new Set<string>();
        const claimed = new Map<string, { id: number; double: boolean }>();
        for (const vote of votes) {
          const site = vote.site ?? GUILDS_SITE;
          const key = `${vote.userId} ${site}`;
          const mine = recent.get(vote.userId) ?? [];
          if (vote.siteEventId !== undefined) {
            if (known.has(`${site} ${vote.siteEventId}`)) continue;
            known.add(`${site} ${vote.siteEventId}`);
          } else {
            if (taken.has(key)) continue;
            const prior = latestOn(mine, site);
            if (prior !== undefined && prior.periodEndsAt > vote.at) {
              // The first poll can list a vote cast as the bot started, before its delivery came in: the
              // delivery is that vote's announcement and knows whether it was double, so it takes the row over.
              if (site === GUILDS_SITE && prior.source === 'seed' && vote.source === 'webhook' && prior.id) {
                claimed.set(vote.userId, { id: prior.id, double: vote.double });
                taken.add(key);
              }
              continue;
            }
            const window = vote.dedupeWindowMs ?? 0;
            if (mine.some((v) => v.site === site && Math.abs(v.votedAt - vote.at) < window)) continue;
            taken.add(key);
          }
          const streak = streakOnTimeline(mine, vote.at, vote.streakGraceMs ?? graceMs(undefined));
          fresh.push({ ...vote, site, streak });
          recent.set(vote.userId, [
            ...mine,
            { id: undefined, site, source: vote.source, streak, votedAt: vote.at, periodEndsAt: vote.periodEndsAt },
          ]);
        }
        for (const [, claim] of claimed)
          await this.query(
            `UPDATE votes SET source = 'webhook', is_double = $3, weight = $4, announced_at = NULL
             WHERE guild_id = $1 AND id = $2 AND source = 'seed'`,
            [claim.id, claim.double ? 1 : 0, claim.double ? 2 : 1],
            tx,
          );
        for (const rows of slices(fresh, ROWS_PER_INSERT)) {
          await this.query(
            `INSERT INTO votes (guild_id, user_id, voted_at, is_double, source, period_ends_at, announced_at, streak,
               site, site_event_id, weight)
             VALUES ${valueRows(rows.length, 10, 2, '$1')}`,
            rows.flatMap((vote) => {
              const weight = recordedWeight(vote.weight ?? (vote.double ? 2 : 1));
              return [
                vote.userId,
                vote.at,
                vote.double || weight > 1 ? 1 : 0,
                vote.source,
                vote.periodEndsAt,
                vote.source === 'seed' ? vote.at : null,
                vote.streak,
                vote.site,
                vote.siteEventId ?? null,
                weight,
              ];
            }),
            tx,
          );
        }
        await this.#extendExpiries(
          fresh.filter((vote) => vote.site !== GUILDS_SITE),
          tx,
        );
        return [...new Set([...fresh.map((vote) => vote.userId), ...claimed.keys()])];
      }, opening);
    }

    /**
     * The members' votes that can still matter to the new ones: in a period running at one of them,
     * inside a dedupe window, or within a streak's grace. Oldest first.
     */
    async #recentVotes(users: readonly string[], votes: readonly NewVote[], tx: Db): Promise<Map<string, Recorded[]>> {
      const since = Math.min(
        ...votes.map((vote) => vote.at - Math.max(vote.streakGraceMs ?? graceMs(undefined), vote.dedupeWindowMs ?? 0)),
      );
      const rows = await this.query(
        `SELECT id, user_id, site, source, streak, voted_at, period_ends_at FROM votes
         WHERE guild_id = $1 AND user_id IN (${placeholders(users.length, 3)}) AND period_ends_at >= $2
         ORDER BY voted_at, id`,
        [since, ...users],
        tx,
      );
      const recent = new Map<string, Recorded[]>();
      for (const row of rows) {
        const userId = String(row.user_id);
        const mine = recent.get(userId) ?? [];
        mine.push({
          id: num(row.id),
          site: String(row.site),
          source: String(row.source),
          streak: num(row.streak),
          votedAt: num(row.voted_at),
          periodEndsAt: num(row.period_ends_at),
        });
        recent.set(userId, mine);
      }
      return recent;
    }

    /** `site id` of the lists' own ids among the votes that are recorded already. */
    async #knownEventIds(votes: readonly NewVote[], tx: Db): Promise<Set<string>> {
      const ids = [...new Set(votes.flatMap((vote) => (vote.siteEventId === undefined ? [] : [vote.siteEventId])))];
      if (ids.length === 0) return new Set();
      const rows = await this.query(
        `SELECT site, site_event_id FROM votes WHERE guild_id = $1 AND site_event_id IN (${placeholders(ids.length, 2)})`,
        ids,
        tx,
      );
      return new Set(rows.map((row) => `${String(row.site)} ${String(row.site_event_id)}`));
    }

    /**
     * A vote on another list that runs longer than the member's scheduled end moves it later: the
     * voter role stays while any list's vote runs. (Guilds' ends are the expiry schedule's to write.)
     */
    async #extendExpiries(votes: ReadonlyArray<{ userId: string; periodEndsAt: number }>, tx: Db): Promise<void> {
      const latest = new Map<string, number>();
      for (const { userId, periodEndsAt } of votes) latest.set(userId, Math.max(latest.get(userId) ?? 0, periodEndsAt));
      for (const slice of slices([...latest], ROWS_PER_INSERT))
        await this.query(
          `INSERT INTO vote_expiries (guild_id, user_id, ends_at) VALUES ${valueRows(slice.length, 2, 2, '$1')}
           ON CONFLICT (guild_id, user_id) DO UPDATE SET ends_at = excluded.ends_at
           WHERE vote_expiries.ends_at < excluded.ends_at`,
          slice.flat(),
          tx,
        );
    }

    async setPeriodEnd(userId: string, at: number, periodEndsAt: number, site: VoteSite = GUILDS_SITE): Promise<void> {
      await this.query(
        'UPDATE votes SET period_ends_at = $4 WHERE guild_id = $1 AND user_id = $2 AND period_ends_at > $3 AND site = $5',
        [userId, at, periodEndsAt, site],
      );
    }

    async setPeriodEnds(ends: ReadonlyArray<{ userId: string; periodEndsAt: number }>, at: number): Promise<void> {
      // One row per member, as an UPDATE … FROM takes one of several matches at random.
      const rows = [...new Map(ends.map((end) => [end.userId, end.periodEndsAt]))];
      for (const slice of slices(rows, ROWS_PER_INSERT)) {
        // PostgreSQL takes an untyped VALUES column for text: the ends are cast to the column's type.
        const values = slice.map((_, i) => `($${4 + 2 * i}, CAST($${5 + 2 * i} AS BIGINT))`).join(', ');
        await this.query(
          `UPDATE votes SET period_ends_at = ends.column2 FROM (VALUES ${values}) AS ends
           WHERE votes.guild_id = $1 AND votes.user_id = ends.column1 AND votes.period_ends_at > $2 AND votes.site = $3`,
          [at, GUILDS_SITE, ...slice.flat()],
        );
      }
    }

    async runningVotes(at: number, site?: VoteSite): Promise<Map<string, number>> {
      const rows = await this.query(
        `SELECT user_id, MAX(period_ends_at) AS period_ends_at FROM votes
         WHERE guild_id = $1 AND period_ends_at > $2${site === undefined ? '' : ' AND site = $3'} GROUP BY user_id`,
        site === undefined ? [at] : [at, site],
      );
      return new Map(rows.map((row) => [String(row.user_id), num(row.period_ends_at)]));
    }

    async runningVotesOf(userId: string, at: number): Promise<RunningListVote[]> {
      const rows = await this.query(
        `SELECT site, voted_at, period_ends_at FROM (
           SELECT site, voted_at, period_ends_at,
             ROW_NUMBER() OVER (PARTITION BY site ORDER BY period_ends_at DESC, id DESC) AS latest
           FROM votes WHERE guild_id = $1 AND user_id = $2 AND period_ends_at > $3) AS running
         WHERE latest = 1 ORDER BY voted_at, site`,
        [userId, at],
      );
      return rows.map((row) => ({
        site: String(row.site),
        votedAt: num(row.voted_at),
        endsAt: num(row.period_ends_at),
      }));
    }

    async unconfirmedVoters(now: number, periodMs: number): Promise<string[]> {
      const rows = await this.query(
        `SELECT DISTINCT user_id FROM votes
         WHERE guild_id = $1 AND source = 'webhook' AND period_ends_at > $2 AND period_ends_at - voted_at = $3
           AND site = $4`,
        [now, periodMs, GUILDS_SITE],
      );
      return rows.map((row) => String(row.user_id));
    }

    // Streaks read every list's votes: a vote on any list carries the member's one streak on.

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
  };
}

/** The member's latest recorded vote on `site` (the one whose period ends last). */
function latestOn(votes: readonly Recorded[], site: VoteSite): Recorded | undefined {
  let latest: Recorded | undefined;
  for (const vote of votes)
    if (vote.site === site && (latest === undefined || vote.periodEndsAt >= latest.periodEndsAt)) latest = vote;
  return latest;
}
