/** The most shards a bot may ask for here: far past Discord's largest bots, small enough to list. */
export const MAX_SHARD_COUNT = 100_000;

/**
 * Reads SHARD_IDS as written by an operator: ids and ranges separated by commas (`0-3`, `0,2,5`,
 * `0-3,8`). Returns them sorted without repeats; throws an Error whose message completes
 * "SHARD_IDS …".
 */
export function parseShardIds(text: string): number[] {
  const ids = new Set<number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!match)
      throw new Error(`must be shard ids and ranges separated by commas, such as 0-3 or 0,2,5 (got "${part}")`);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (to < from) throw new Error(`has a range that runs backwards (${part}): write the lower id first`);
    if (to >= MAX_SHARD_COUNT) throw new Error(`must be below ${MAX_SHARD_COUNT}`);
    for (let id = from; id <= to; id++) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

/** Shard ids as ranges, the way SHARD_IDS is written: [0,1,2,3,8] → "0-3,8". */
export function formatShardIds(ids: readonly number[]): string {
  const parts: string[] = [];
  let start: number | undefined;
  for (let i = 0; i < ids.length; i++) {
    start ??= ids[i]!;
    if (ids[i + 1] !== ids[i]! + 1) {
      parts.push(start === ids[i] ? String(start) : `${start}-${ids[i]}`);
      start = undefined;
    }
  }
  return parts.join(',');
}
