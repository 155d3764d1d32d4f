import { describe, expect, it } from '@jest/globals';
import { ShardOwnership, shardOf } from '../../../src/shards/ownership.js';
import { formatShardIds } from '../../../src/shards/shard-ids.js';

describe('shard ownership', () => {
  it("puts a guild on shard (id >> 22) % count, Discord's rule", () => {
    // 4194304 = 1 << 22: the id's timestamp part is 5, so shard 5 % 4 = 1.
    expect(shardOf(String(5 * 4194304 + 123), 4)).toBe(1);
    expect(shardOf('175928847299117063', 1)).toBe(0);
    expect(shardOf('175928847299117063', 16)).toBe(Number((175928847299117063n >> 22n) % 16n));
  });

  it('owns the servers on its shards and no others', () => {
    const ownership = new ShardOwnership(4, [1, 3]);
    const on = (shard: number) => String((1000n * 4n + BigInt(shard)) << 22n);
    expect([0, 1, 2, 3].map((shard) => ownership.owns(on(shard)))).toEqual([false, true, false, true]);
    expect(ownership.ownsAll).toBe(false);
  });

  it('owns every server when it runs every shard', () => {
    expect(ShardOwnership.everything().owns('175928847299117063')).toBe(true);
    expect(ShardOwnership.everything(3).ids).toEqual([0, 1, 2]);
  });

  it('writes ids back as ranges for a log line', () => {
    expect(formatShardIds([0, 1, 2, 3, 5, 8, 9])).toBe('0-3,5,8-9');
    expect(formatShardIds([])).toBe('');
  });
});
