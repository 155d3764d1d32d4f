import { graceMs } from '../streaks/streak.js';
import { streakOnTimeline } from '../streaks/merged-timeline.js';
import type { StreakStore, VoteLedger } from './ports.js';
import { IDS_PER_STATEMENT, slices, valueRows } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import { GUILDS_SITE, recordedWeight, type NewVote, type VoteSite } from './types.js';
import { claimedForwards, enqueueForwards, type ForwardedVote } from './sql-forward-outbox.js';
import { sqlVoteHistory, type FreshVote, type Recorded, type SeedClaims } from './sql-vote-history.js';
import { sqlVoteStreaks } from './sql-vote-streaks.js';
import { sqlVotePeriods } from './sql-vote-periods.js';

/** A lock key safe to write into a statement as it is (a quote or backslash never is). */
const PLAIN_KEY = /^[0-9A-Za-z_ ]+$/;

/**
 * One server's recorded votes (votes), on every list it is on: one per member per list per vote
 * period, and the streak each made. Counting them is sql-vote-counts.ts's, announcing them
 * sql-vote-announcements.ts's; when the server's counting began is the servers table's.
 */
export function sqlVotes<Base extends ServerScopedClass>(base: Base) {
  return class SqlVotes
    extends sqlVotePeriods(sqlVoteStreaks(sqlVoteHistory(base)))
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
        const recent = await this.recentVotes(users, votes, tx);
        const known = await this.knownEventIds(votes, tx);
        const { fresh, claimed } = sortVotes(votes, recent, known);
        await this.claimSeeds(claimed, tx);
        await this.insertVotes(fresh, tx);
        await this.extendExpiries(
          fresh.filter((vote) => vote.site !== GUILDS_SITE),
          tx,
        );
        // Issue 51: the forwarded deliveries are stored with the votes, never after them.
        await enqueueForwards(
          tx,
          this.guildId,
          [...fresh.flatMap(forwarded), ...(await claimedForwards(tx, this.guildId, claimed))],
          Date.now(),
        );
        return [...new Set([...fresh.map((vote) => vote.userId), ...claimed.keys()])];
      }, opening);
    }

    // Streaks read every list's votes: a vote on any list carries the member's one streak on.
  };
}

/** A new vote as it is forwarded; the first poll's finds are never counted, so never forwarded. */
function forwarded(vote: FreshVote): ForwardedVote[] {
  if (vote.source === 'seed') return [];
  const weight = recordedWeight(vote.weight ?? (vote.double ? 2 : 1));
  const { userId, site, at: votedAt, periodEndsAt: expiresAt, streak } = vote;
  return [{ userId, site, weight, votedAt, expiresAt, streak }];
}

/** The member's latest recorded vote on `site` (the one whose period ends last). */
function latestOn(votes: readonly Recorded[], site: VoteSite): Recorded | undefined {
  let latest: Recorded | undefined;
  for (const vote of votes)
    if (vote.site === site && (latest === undefined || vote.periodEndsAt >= latest.periodEndsAt)) latest = vote;
  return latest;
}

/**
 * The vote a delivery with the list's id brings was read back from the list's API already (which
 * gives no id): the same member, list and time (Top.gg's `created_at`, the same in both).
 */
const readBack = (mine: readonly Recorded[], site: VoteSite, at: number): boolean =>
  mine.some((v) => v.site === site && v.source === 'recovered' && v.votedAt === at);

/**
 * A vote read back from the list's API is one the ledger has when a vote on that list already covers
 * its time (its delivery came, or an earlier read took it), or is closer to one than the list's window.
 * Read back late, it may be older than the latest vote there: only a vote around its time can be it.
 */
const covered = (mine: readonly Recorded[], site: VoteSite, at: number, windowMs: number): boolean =>
  mine.some(
    (v) => v.site === site && ((v.votedAt <= at && at < v.periodEndsAt) || Math.abs(v.votedAt - at) < windowMs),
  );

/**
 * Which of the new votes are recorded (each with the streak it makes), given the members' recent
 * votes and the lists' event ids already recorded: one per member per list per vote period, a
 * list's event once, and a delivery that takes over a seed row the first poll wrote.
 */
function sortVotes(
  votes: readonly NewVote[],
  recent: Map<string, Recorded[]>,
  known: Set<string>,
): { fresh: FreshVote[]; claimed: SeedClaims } {
  const fresh: FreshVote[] = [];
  const taken = new Set<string>();
  const claimed: SeedClaims = new Map();
  for (const vote of votes) {
    const site = vote.site ?? GUILDS_SITE;
    const key = `${vote.userId} ${site}`;
    const mine = recent.get(vote.userId) ?? [];
    if (vote.siteEventId !== undefined) {
      if (known.has(`${site} ${vote.siteEventId}`) || readBack(mine, site, vote.at)) continue;
      known.add(`${site} ${vote.siteEventId}`);
    } else if (vote.source === 'recovered') {
      if (covered(mine, site, vote.at, vote.dedupeWindowMs ?? 0)) continue;
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
  return { fresh, claimed };
}
