import { describe, expect, it } from '@jest/globals';
import { parseConfig } from '../../src/config/bot.js';
import { problemsOf, VALID_ENV } from '../support/config-env.js';

const POSTGRES = { DATABASE_URL: 'postgres://bot:pw@db.internal:5432/bot' };

describe('shard settings', () => {
  it('runs one shard in one process when neither SHARD_COUNT nor SHARD_IDS is set', () => {
    expect(parseConfig(VALID_ENV).discord.shards).toEqual({ count: 1, ids: undefined });
  });

  it('reads a count, auto, and ids written as ranges and lists', () => {
    expect(parseConfig({ ...VALID_ENV, SHARD_COUNT: '8' }).discord.shards).toEqual({ count: 8, ids: undefined });
    expect(parseConfig({ ...VALID_ENV, SHARD_COUNT: 'auto' }).discord.shards.count).toBe('auto');
    const split = parseConfig({ ...VALID_ENV, ...POSTGRES, SHARD_COUNT: '8', SHARD_IDS: '0-3, 6,5' });
    expect(split.discord.shards).toEqual({ count: 8, ids: [0, 1, 2, 3, 5, 6] });
  });

  it('refuses a count that is not a positive whole number or auto, naming SHARD_COUNT', () => {
    for (const bad of ['0', '-2', 'two', '1.5', 'automatic'])
      expect(problemsOf({ ...VALID_ENV, SHARD_COUNT: bad })).toEqual([expect.stringMatching(/^SHARD_COUNT must be/)]);
  });

  it('refuses ids that are not ids or ranges, naming SHARD_IDS', () => {
    for (const bad of ['a', '0-', '3-1', '0;1'])
      expect(problemsOf({ ...VALID_ENV, ...POSTGRES, SHARD_COUNT: '4', SHARD_IDS: bad })).toEqual([
        expect.stringMatching(/^SHARD_IDS /),
      ]);
  });

  it('refuses ids outside the count, saying which ids there are', () => {
    expect(problemsOf({ ...VALID_ENV, ...POSTGRES, SHARD_COUNT: '4', SHARD_IDS: '2-4' })).toEqual([
      'SHARD_IDS has shard 4, but SHARD_COUNT is 4: shard ids run from 0 to 3',
    ]);
  });

  it('refuses SHARD_IDS without SHARD_COUNT', () => {
    expect(problemsOf({ ...VALID_ENV, ...POSTGRES, SHARD_IDS: '0' })).toEqual([
      expect.stringMatching(/^SHARD_IDS is set without SHARD_COUNT/),
    ]);
  });

  it('refuses some of the shards on a SQLite file, naming DATABASE_URL, and takes all of them', () => {
    expect(problemsOf({ ...VALID_ENV, SHARD_COUNT: '2', SHARD_IDS: '1' })).toEqual([
      expect.stringMatching(/^SHARD_IDS runs only some of the shards.*DATABASE_URL/),
    ]);
    expect(parseConfig({ ...VALID_ENV, SHARD_COUNT: '2', SHARD_IDS: '0-1' }).discord.shards.ids).toEqual([0, 1]);
  });

  it('sizes the PostgreSQL pool by DATABASE_POOL_SIZE, 4 by default', () => {
    expect(parseConfig(VALID_ENV).databasePoolSize).toBe(4);
    expect(parseConfig({ ...VALID_ENV, DATABASE_POOL_SIZE: '20' }).databasePoolSize).toBe(20);
    expect(problemsOf({ ...VALID_ENV, DATABASE_POOL_SIZE: '0' })).toEqual([
      expect.stringMatching(/^DATABASE_POOL_SIZE must be at least 1/),
    ]);
  });
});
