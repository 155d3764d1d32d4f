import { member, nextSnowflake, slashCommand, type InteractionPayload } from '../tools/discord-standin/index.js';
import type { Sandbox } from '../src/sandbox/types.js';

const TWELVE_HOURS_MS = 12 * 3_600_000;

/** `/vote` from a member about themselves: the service is asked about `memberId`. */
export function voteFrom(memberId: string): InteractionPayload {
  return slashCommand({ name: 'vote', member: member({ id: memberId }) });
}

/** Members with an active vote on the sandbox (after any sandbox.reset()). */
export function voters(sandbox: Sandbox, count: number): string[] {
  const ids = Array.from({ length: count }, () => nextSnowflake());
  for (const id of ids) sandbox.setVote(id, TWELVE_HOURS_MS);
  return ids;
}

/**
 * The traffic mix of the throughput and memory runs: every other /vote comes from one of a pool of
 * returning voters (cacheable), the rest from members never seen before (never cached, not voted).
 */
export function mixedVotes(sandbox: Sandbox, poolSize = 1_000): (index: number) => InteractionPayload {
  const pool = voters(sandbox, poolSize);
  return (index) => voteFrom(index % 2 === 0 ? pool[(index / 2) % pool.length]! : nextSnowflake());
}
