import { beforeAll, describe, expect, it } from '@jest/globals';
import { runShardDrill, type ShardDrillResult } from '../../bench/drills/shards.js';

// Issue 33's shards drill, small: 8 servers over 4 shards, 6 votes each. `npm run bench:drills`
// runs it at full size (bench/drills/shards.ts).

/** Undefined where the machine has no PostgreSQL (PGlite holds no locks): nothing to check there. */
let result: ShardDrillResult | undefined;

beforeAll(async () => {
  result = await runShardDrill({ servers: 8, votesPerServer: 6, announcedWithinMs: 30_000 }, () => {});
}, 150_000);

describe('bots on shards 0-1 and 2-3 of 4 on one PostgreSQL, with a standby and a process of another count', () => {
  it('keeps a process with overlapping SHARD_IDS waiting as a standby, off the gateway', () => {
    if (!result) return;
    expect(result.standby).toMatchObject({ health: '200 standby', level: 30, identifies: 0, acted: false });
  });

  it('refuses a process with another SHARD_COUNT, naming it, for as long as the others run', () => {
    if (!result) return;
    expect(result.mismatch.reason).toContain('SHARD_COUNT 4, this one with 8');
    // A setting to fix, not a turn to wait for: a warning, where a standby's line is info.
    expect(result.mismatch).toMatchObject({
      level: 40,
      health: '200 standby',
      identifies: 0,
      acted: false,
      waitingAfterBurst: true,
      exitOnSigterm: 0,
    });
  });

  it('announces every vote exactly once when the first process is SIGKILLed mid-burst and the standby takes over', () => {
    if (!result) return;
    expect(result.killedAfter).toBeLessThan(result.votes);
    expect({ lost: result.lost, twice: result.twice, elsewhere: result.elsewhere }).toEqual({
      lost: 0,
      twice: 0,
      elsewhere: 0,
    });
    expect(result.overlappingIdentifies).toBe(0);
    expect(Number.isFinite(result.takeover.servedMs)).toBe(true);
  });
});
