import { graceMs } from '../streaks/streak.js';
import type { TimelineVote } from '../streaks/merged-timeline.js';
import { num, placeholders, ROWS_PER_INSERT, slices, valueRows, type Db, type Row, type SqlValue } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import { recordedWeight, type NewVote, type VoteSite } from './types.js';

/** A recorded vote as accepting a new one reads it. */
export interface Recorded extends TimelineVote {
  id: number | undefined;
  site: VoteSite;
  source: string;
}

/** A new vote as it is recorded: its list and the streak it makes. */
export type FreshVote = NewVote & { site: VoteSite; streak: number };

/** A seed row a delivery takes over: the poll listed the vote before its delivery came in. */
export type SeedClaims = Map<string, { id: number; double: boolean }>;

/**
 * What accepting new votes reads and writes: the members' recent votes, the lists' event ids already
 * recorded, the new rows, the seed rows a delivery takes over, and the later ends of other lists' votes.
 */
export function sqlVoteHistory<Base extends ServerScopedClass>(base: Base) {
  return class SqlVoteHistory extends base {
    /**
     * The members' votes that can still matter to the new ones: in a period running at one of them,
     * inside a dedupe window, or within a streak's grace. Oldest first.
     */
    protected async recentVotes(
      users: readonly string[],
      votes: readonly NewVote[],
      tx: Db,
    ): Promise<Map<string, Recorded[]>> {
      const rows = await this.query(
        `SELECT id, user_id, site, source, streak, voted_at, period_ends_at FROM votes
         WHERE guild_id = $1 AND user_id IN (${placeholders(users.length, 3)}) AND period_ends_at >= $2
         ORDER BY voted_at, id`,
        [mattersSince(votes), ...users],
        tx,
      );
      const recent = new Map<string, Recorded[]>();
      for (const row of rows) {
        const userId = String(row.user_id);
        recent.set(userId, [...(recent.get(userId) ?? []), toRecorded(row)]);
      }
      return recent;
    }

    /** `site id` of the lists' own ids among the votes that are recorded already. */
    protected async knownEventIds(votes: readonly NewVote[], tx: Db): Promise<Set<string>> {
      const ids = [...new Set(votes.flatMap((vote) => vote.siteEventId ?? []))];
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
    protected async extendExpiries(
      votes: ReadonlyArray<{ userId: string; periodEndsAt: number }>,
      tx: Db,
    ): Promise<void> {
      for (const slice of slices(latestEnds(votes), ROWS_PER_INSERT))
        await this.query(
          `INSERT INTO vote_expiries (guild_id, user_id, ends_at) VALUES ${valueRows(slice.length, 2, 2, '$1')}
           ON CONFLICT (guild_id, user_id) DO UPDATE SET ends_at = excluded.ends_at
           WHERE vote_expiries.ends_at < excluded.ends_at`,
          slice.flat(),
          tx,
        );
    }

    /** The delivery takes the seed row over: it knows whether the vote was double, and announces it. */
    protected async claimSeeds(claimed: SeedClaims, tx: Db): Promise<void> {
      for (const [, claim] of claimed)
        await this.query(
          `UPDATE votes SET source = 'webhook', is_double = $3, weight = $4, announced_at = NULL
           WHERE guild_id = $1 AND id = $2 AND source = 'seed'`,
          [claim.id, claim.double ? 1 : 0, claim.double ? 2 : 1],
          tx,
        );
    }

    protected async insertVotes(fresh: readonly FreshVote[], tx: Db): Promise<void> {
      for (const rows of slices(fresh, ROWS_PER_INSERT)) {
        await this.query(
          `INSERT INTO votes (guild_id, user_id, voted_at, is_double, source, period_ends_at, announced_at, streak,
             site, site_event_id, weight)
           VALUES ${valueRows(rows.length, 10, 2, '$1')}`,
          rows.flatMap(voteRow),
          tx,
        );
      }
    }
  };
}

function toRecorded(row: Row): Recorded {
  return {
    id: num(row.id),
    site: String(row.site),
    source: String(row.source),
    streak: num(row.streak),
    votedAt: num(row.voted_at),
    periodEndsAt: num(row.period_ends_at),
  };
}

/** A new vote's columns after the server's id, in the order insertVotes names them. */
function voteRow(vote: FreshVote): SqlValue[] {
  const weight = recordedWeight(vote.weight ?? (vote.double ? 2 : 1));
  return [
    vote.userId,
    vote.at,
    vote.double || weight > 1 ? 1 : 0,
    vote.source,
    vote.periodEndsAt,
    vote.source === 'seed' ? vote.at : (vote.announcedAt ?? null),
    vote.streak,
    vote.site,
    vote.siteEventId ?? null,
    weight,
  ];
}

/** The oldest vote that can matter to these: one in a running period, a dedupe window or a streak's grace. */
const mattersSince = (votes: readonly NewVote[]): number =>
  Math.min(
    ...votes.map((vote) => vote.at - Math.max(vote.streakGraceMs ?? graceMs(undefined), vote.dedupeWindowMs ?? 0)),
  );

/** Each member's latest end among these votes, as [member, end] pairs. */
function latestEnds(votes: ReadonlyArray<{ userId: string; periodEndsAt: number }>): Array<[string, number]> {
  const latest = new Map<string, number>();
  for (const { userId, periodEndsAt } of votes) latest.set(userId, Math.max(latest.get(userId) ?? 0, periodEndsAt));
  return [...latest];
}
