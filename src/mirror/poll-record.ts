import type { VoteList } from '../api/index.js';
import { GUILDS_SITE, type NewVote } from '../store/index.js';
import { ASSUMED_VOTE_PERIOD_MS, SAME_VOTE_END_MS, type VoteMirrorOptions } from './mirror-options.js';

/**
 * Brings the ledger in line with a poll's list: a running vote's end moved where the service says
 * otherwise, a listed vote no webhook reported recorded. Whether the ledger took every listed vote
 * (one it did not, another writer recorded first, is read again next poll). The caller skips it
 * (nothing read) when the list is the one the last poll recorded.
 */
export async function recordPolledVotes(
  { store, logger, votes: sink, streakGraceMs }: VoteMirrorOptions,
  votes: VoteList['votes'],
  at: number,
  first: boolean,
): Promise<boolean> {
  // One read for the whole list: most listed votes are running already and need no more work.
  // Guilds' own: another list's running vote neither hides a Guilds vote nor moves its end.
  const running = await store.runningVotes(at, GUILDS_SITE);
  const moved: Array<{ userId: string; periodEndsAt: number }> = [];
  const candidates: NewVote[] = [];
  for (const vote of votes) {
    const { userId } = vote;
    const periodEndsAt = vote.remainingMs ? at + vote.remainingMs : at + ASSUMED_VOTE_PERIOD_MS;
    const endsAt = running.get(userId);
    if (endsAt === undefined) {
      const source = first ? 'seed' : 'poll';
      candidates.push({ userId, at, double: false, source, periodEndsAt, streakGraceMs });
    } else if (Math.abs(endsAt - periodEndsAt) >= SAME_VOTE_END_MS) moved.push({ userId, periodEndsAt });
  }
  if (moved.length > 0) await store.setPeriodEnds(moved, at);
  const fresh = await store.acceptVotes(candidates);
  const accepted = first ? 0 : fresh.length;
  if (accepted > 0) {
    logger.info({ voters: accepted }, 'poll found votes no webhook reported');
    sink.accepted();
  }
  return fresh.length === candidates.length;
}
