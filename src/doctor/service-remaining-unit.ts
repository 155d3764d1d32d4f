import { readVoteList, readVoteStatus } from '../api/index.js';
import { fail, pass, skip, type Check } from './check.js';

/**
 * The bot reads `remaining` as milliseconds (the spec's unit); the live service's unit is not
 * documented. A vote lasts hours: in ms that is millions, in seconds at most tens of thousands. So
 * when no value exceeds a day's worth of seconds, they are most likely seconds.
 */
const DAY_IN_SECONDS = 86_400;

function hours(ms: number): string {
  return ms >= 3_600_000 ? `${(ms / 3_600_000).toFixed(1)} h` : `${Math.round(ms / 1000)} s`;
}

export const serviceRemainingUnitCheck: Check = {
  name: 'vote time left unit',
  async run(state) {
    const probe = state.service;
    if (!probe?.accepted) return skip('needs accepted credentials.');
    const values: number[] = [];
    for (const answer of probe.answers) {
      if (answer.status < 200 || answer.status > 299) continue;
      const list = readVoteList(answer.body);
      if (list.ok) for (const vote of list.value.votes) values.push(vote.remainingMs ?? 0);
      else if (answer.path.startsWith('/votes/')) {
        const status = readVoteStatus(answer.body);
        if (status.ok) values.push(status.value.remainingMs ?? 0);
      }
    }
    const largest = Math.max(0, ...values);
    if (largest === 0) return pass('no active vote to judge by; the bot reads remaining as milliseconds.');
    if (largest <= DAY_IN_SECONDS)
      return fail(
        `remaining looks like seconds: the largest is ${largest} (read as ms: ${hours(largest)}; as seconds: ${hours(largest * 1000)}).`,
        'the bot reads remaining as milliseconds, as the spec says: members would see votes run out far too soon. Ask the service which unit it sends; see docs/service-api.md.',
      );
    return pass(`looks like milliseconds: the largest is ${largest} (${hours(largest)}).`);
  },
};
