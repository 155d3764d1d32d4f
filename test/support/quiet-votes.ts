import type { VoteSink } from '../../src/mirror/vote-sink.js';

/** A VoteSink that acts on nothing, for a test of the mirror or the event route alone; `watched` replaces what the test looks at. */
export function quietVotes(watched: Partial<VoteSink> = {}): VoteSink {
  return {
    accepted: () => undefined,
    newVote: async () => undefined,
    running: async () => undefined,
    seen: async () => undefined,
    polled: async () => undefined,
    ...watched,
  };
}
