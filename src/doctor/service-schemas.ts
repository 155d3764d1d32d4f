import { describeIssues, isNoReview, readReviewBody, readVoteList, readVoteStatus, type Reader } from '../api/index.js';
import { fail, pass, skip, type Check, type DoctorState, type Outcome } from './check.js';
import type { ProbeResult } from './service-probe.js';

const FIX =
  "the service's answers are not what the bot can read: see docs/service-api.md, and tell the service's maintainers.";

/**
 * The member whose vote and review are read: the first listed voter (real data), else the bot's
 * own application id. Lines name which, not the member's id: the output may be pasted anywhere.
 */
function sampleUser(state: DoctorState): { id: string; who: string } | undefined {
  const votes = state.service?.votes;
  const list = votes && !('error' in votes) ? readVoteList(votes.body) : undefined;
  const voter = list?.ok ? list.value.votes[0]?.userId : undefined;
  if (voter !== undefined) return { id: voter, who: 'the first listed voter' };
  const own = state.config?.discord.clientId;
  return own === undefined ? undefined : { id: own, who: "the bot's own id" };
}

function judge<T>(result: ProbeResult, reader: Reader<T>, summary: (data: T) => string): Outcome {
  if ('error' in result) return fail(`got no answer (${result.error}).`, 'check the network and try again.');
  if (result.status < 200 || result.status > 299)
    return fail(`answered HTTP ${result.status}.`, 'try again shortly; a lasting error is the service failing.');
  if (result.invalidJson) return fail('answered with a body that is not JSON.', FIX);
  const read = reader(result.body);
  if (!read.ok) return fail(`answered a body the bot cannot read (${describeIssues(read.issues)}).`, FIX);
  return pass(summary(read.value));
}

const listVotes: Check = {
  name: 'GET /votes',
  async run(state) {
    const votes = state.service?.votes;
    if (!state.service?.accepted || !votes) return skip('needs accepted credentials.');
    return judge(
      votes,
      readVoteList,
      (list) =>
        `matches the schema: ${list.votes.length} active votes, ${list.totalVotes} in all, ${list.monthlyVotes} this month.`,
    );
  },
};

const getVote: Check = {
  name: 'GET /votes/{user_id}',
  async run(state) {
    const user = sampleUser(state);
    if (!state.service?.accepted || !user) return skip('needs accepted credentials.');
    return judge(
      await state.service.get(`/votes/${user.id}`),
      readVoteStatus,
      (status) => `matches the schema (${user.who}: ${status.voted ? 'voted' : 'not voted'}).`,
    );
  },
};

const getReview: Check = {
  name: 'GET /reviews/{user_id}',
  async run(state) {
    const user = sampleUser(state);
    if (!state.service?.accepted || !user) return skip('needs accepted credentials.');
    const result = await state.service.get(`/reviews/${user.id}`);
    // "No review" has several accepted shapes (see docs/service-api.md), 404 among them.
    if (!('error' in result) && (result.status === 404 || isNoReview(result.body)))
      return result.status === 404 || (result.status >= 200 && result.status < 300)
        ? pass(`matches the schema (${user.who}: no review, HTTP ${result.status}).`)
        : fail(`answered HTTP ${result.status}.`, 'try again shortly; a lasting error is the service failing.');
    return judge(
      result,
      readReviewBody,
      (review) => `matches the schema (${user.who}: a ${review.rating}-star review).`,
    );
  },
};

export const serviceSchemaChecks: readonly Check[] = [listVotes, getVote, getReview];
