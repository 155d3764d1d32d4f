import { describe, expect, it } from '@jest/globals';
import { BoundedMap } from '../../../src/core/bounded-map.js';

describe('BoundedMap', () => {
  it('drops the entry written longest ago when a new key passes the bound', () => {
    const map = new BoundedMap<string, number>({ max: 2 });
    map.set('a', 1).set('b', 2);
    map.set('a', 10);
    map.set('c', 3);
    expect([...map]).toEqual([
      ['a', 10],
      ['c', 3],
    ]);
    expect(map.get('b')).toBeUndefined();
  });

  it('in written order, lets a read leave the order alone', () => {
    const map = new BoundedMap<string, number>({ max: 2 });
    map.set('a', 1).set('b', 2);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect(map.has('a')).toBe(false);
    expect(map.has('b')).toBe(true);
  });

  it('in used order, drops the entry read or written longest ago', () => {
    const map = new BoundedMap<string, number>({ max: 2, order: 'used' });
    map.set('a', 1).set('b', 2);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect([...map].map(([key]) => key)).toEqual(['a', 'c']);
  });

  it('lets peek read without counting as a use', () => {
    const map = new BoundedMap<string, number>({ max: 2, order: 'used' });
    map.set('a', 1).set('b', 2);
    expect(map.peek('a')).toBe(1);
    map.set('c', 3);
    expect([...map].map(([key]) => key)).toEqual(['b', 'c']);
  });

  it('drops every entry when a new key meets a full map that clears', () => {
    const map = new BoundedMap<string, number>({ max: 2, whenFull: 'clear' });
    map.set('a', 1).set('b', 2);
    map.set('b', 20);
    expect(map.size).toBe(2);
    map.set('c', 3);
    expect([...map]).toEqual([['c', 3]]);
  });

  it('keeps nothing with a bound of 0', () => {
    const map = new BoundedMap<string, number>({ max: 0 });
    map.set('a', 1);
    expect(map.size).toBe(0);
    expect(map.get('a')).toBeUndefined();
  });

  it('forgets an entry once its time to live has passed, and keeps one without a time to live', () => {
    let now = 1_000;
    const map = new BoundedMap<string, string>({ max: 10, now: () => now });
    map.set('brief', 'x', 500);
    map.set('lasting', 'y');
    now = 1_499;
    expect(map.get('brief')).toBe('x');
    now = 1_500;
    expect(map.get('brief')).toBeUndefined();
    expect(map.size).toBe(1);
    now = Number.MAX_SAFE_INTEGER;
    expect(map.get('lasting')).toBe('y');
  });

  it('gives an entry with when it was written, checked against a time the caller passes', () => {
    let now = 100;
    const map = new BoundedMap<string, string>({ max: 10, now: () => now });
    map.set('k', 'v', 50);
    now = 1_000;
    expect(map.entry('k', 120)).toMatchObject({ value: 'v', at: 100 });
    expect(map.entry('k', 150)).toBeUndefined();
  });

  it('updates an entry where it stands, so the update does not make it the newest', () => {
    let now = 0;
    const map = new BoundedMap<string, string>({ max: 2, now: () => now });
    map.set('a', 'claimed').set('b', 'claimed');
    now = 10;
    map.update('a', 'posted', 5);
    map.set('c', 'claimed');
    expect(map.has('a')).toBe(false);
    expect(map.get('b')).toBe('claimed');
    map.update('d', 'posted', 5);
    expect([...map].map(([key]) => key)).toEqual(['c', 'd']);
    now = 15;
    expect(map.get('d')).toBeUndefined();
  });

  it('lets entries be deleted while iterating', () => {
    const map = new BoundedMap<string, number>({ max: 5 });
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      map.set(key, value);
    for (const [key, value] of map) if (value % 2 === 1) map.delete(key);
    expect([...map]).toEqual([['b', 2]]);
    map.clear();
    expect(map.size).toBe(0);
  });
});
