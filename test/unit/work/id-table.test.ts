import { describe, expect, it } from '@jest/globals';
import { IdTable } from '../../../src/work/id-table.js';

// Discord ids of every length the table splits differently, and the edges of its two parts.
const SNOWFLAKES = [
  '1',
  '9',
  '999999999',
  '1000000000',
  '1000000001',
  '123456789012345678',
  '1234567890123456789',
  '18446744073709551615',
  '99999999999999999999',
  '281474976710656000',
  '281474976710655999',
];
// Ids the table keeps in its Map: not a decimal without a leading zero of at most 20 digits.
const OTHERS = ['0', '007', 'u1', 'member-2', '', '123456789012345678901', '12 34', '１２３'];

describe('IdTable', () => {
  it('gives back each value by its id, for Discord ids and any other string alike', () => {
    const table = new IdTable();
    [...SNOWFLAKES, ...OTHERS].forEach((id, i) => table.set(id, i * 1.5 - 7));
    [...SNOWFLAKES, ...OTHERS].forEach((id, i) => expect(table.get(id)).toBe(i * 1.5 - 7));
    expect(table.size).toBe(SNOWFLAKES.length + OTHERS.length);
    // Close to a kept id, but not it.
    for (const id of ['2', '1000000002', '123456789012345679', '00', 'u2']) expect(table.get(id)).toBeUndefined();
  });

  it('gives every id back as the same string, Discord ids in numeric order', () => {
    const table = IdTable.of([...SNOWFLAKES, ...OTHERS].reverse().map((id, i) => [id, i] as const));
    const ids = [...table.ids()];
    const numeric = [...SNOWFLAKES].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    expect(ids.slice(0, SNOWFLAKES.length)).toEqual(numeric);
    expect(new Set(ids.slice(SNOWFLAKES.length))).toEqual(new Set(OTHERS));
  });

  it('replaces a value set again and deletes what it is asked to, once', () => {
    const table = new IdTable();
    table.set('123456789012345678', 1);
    table.set('123456789012345678', 2);
    table.set('u1', 3);
    expect(table.size).toBe(2);
    expect(table.get('123456789012345678')).toBe(2);
    expect(table.delete('123456789012345678')).toBe(true);
    expect(table.delete('123456789012345678')).toBe(false);
    expect(table.delete('u1')).toBe(true);
    expect(table.delete('u2')).toBe(false);
    expect(table.size).toBe(0);
    expect([...table.ids()]).toEqual([]);
  });

  it('keeps the last value of an id given twice at once, as a Map would', () => {
    const table = IdTable.of([
      ['222222222222222222', 1],
      ['111111111111111111', 2],
      ['222222222222222222', 3],
      ['u1', 4],
      ['u1', 5],
    ]);
    expect(table.size).toBe(3);
    expect(table.get('222222222222222222')).toBe(3);
    expect(table.get('u1')).toBe(5);
  });

  // A small table changes in place; one of thousands keeps deletes and new ids apart until it merges them.
  it.each([
    ['a small table', 300, 3_000],
    ['a big one, through its merges', 6_000, 40_000],
  ])('agrees with a Map over many random sets and deletes: %s', (_, poolSize, steps) => {
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      // Its high bits: the low bits of this generator repeat within a few hundred steps.
      return Math.floor((seed / 2_147_483_648) * below);
    };
    const pool = Array.from({ length: poolSize }, (_, i) =>
      i % 10 === 0 ? `name-${i}` : String(BigInt(random(2 ** 30)) * 2n ** 32n + BigInt(random(2 ** 30)) + 1n),
    );
    const table = new IdTable();
    const map = new Map<string, number>();
    // Disagreements are collected and compared once: an expect() a step made this test 4 s of CPU.
    const disagreements: string[] = [];
    for (let step = 0; step < steps; step++) {
      const id = pool[random(pool.length)]!;
      if (random(3) === 0) {
        const [deleted, wasThere] = [table.delete(id), map.delete(id)];
        if (deleted !== wasThere) disagreements.push(`step ${step}: delete(${id}) gave ${deleted}, a Map ${wasThere}`);
      } else {
        table.set(id, step);
        map.set(id, step);
      }
      if (step % 997 === 0 && table.size !== map.size)
        disagreements.push(`step ${step}: size ${table.size}, a Map's ${map.size}`);
    }
    expect(disagreements).toEqual([]);
    expect(table.size).toBe(map.size);
    for (const id of pool) expect(table.get(id)).toBe(map.get(id));
    expect(new Set(table.ids())).toEqual(new Set(map.keys()));
    const mapped = table.mapped((value) => -value);
    for (const id of pool) expect(mapped.get(id)).toBe(map.has(id) ? -map.get(id)! : undefined);
    expect(mapped.size).toBe(map.size);
  });

  it('maps values into a table of its own, leaving the original as it was', () => {
    const table = IdTable.of([
      ['123456789012345678', 10],
      ['u1', 20],
    ]);
    const mapped = table.mapped((value) => value + 1);
    mapped.set('999999999999999999', 0);
    expect(mapped.get('123456789012345678')).toBe(11);
    expect(mapped.get('u1')).toBe(21);
    expect(table.get('123456789012345678')).toBe(10);
    expect(table.get('u1')).toBe(20);
    expect(table.get('999999999999999999')).toBeUndefined();
  });
});
