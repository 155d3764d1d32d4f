import { describe, expect, it } from '@jest/globals';
import { MirrorIndex } from '../../../src/mirror/mirror-index.js';
import { holdClock } from '../../support/held-clock.js';

const END = Date.UTC(2026, 10, 26, 18, 0, 0);
const DAY = 86_400_000;

describe('MirrorIndex', () => {
  it('gives back each entry as set, whichever way the member voted', () => {
    const index = MirrorIndex.of([
      { userId: '111', expiresAt: END, viaDiscord: true },
      { userId: '222', expiresAt: END + 1_501, viaDiscord: false },
    ]);
    expect(index.get('111')).toEqual({ userId: '111', expiresAt: END, viaDiscord: true });
    expect(index.get('222')).toEqual({ userId: '222', expiresAt: END + 1_501, viaDiscord: false });
    expect(index.expiresAt('222')).toBe(END + 1_501);
    expect(index.get('333')).toBeUndefined();
    expect(index.expiresAt('333')).toBeUndefined();
    expect([...index.userIds()]).toEqual(['111', '222']);
  });

  it('replaces and deletes entries, and a copy changes apart from its original', () => {
    const index = MirrorIndex.of([{ userId: '111', expiresAt: END, viaDiscord: false }]);
    const copy = index.copy();
    copy.set({ userId: '111', expiresAt: END + 60_000, viaDiscord: true });
    copy.set({ userId: '222', expiresAt: END, viaDiscord: true });
    index.delete('111');
    expect(index.get('111')).toBeUndefined();
    expect(copy.get('111')).toEqual({ userId: '111', expiresAt: END + 60_000, viaDiscord: true });
    expect([...copy.userIds()]).toEqual(['111', '222']);
  });

  it('gives back ends long before and after now exactly, and a copy made later too', () => {
    // The index counts from Date.now when made: held, and moved so the copy counts from another origin.
    const clock = holdClock(['Date']);
    try {
      const ends = [0, 1, Date.now() - 40 * DAY, Date.now() - 1, Date.now() + 40 * DAY + 7, 4_102_444_800_001];
      const entries = ends.flatMap((expiresAt, i) => [
        { userId: `a${i}`, expiresAt, viaDiscord: true },
        { userId: `b${i}`, expiresAt, viaDiscord: false },
      ]);
      const index = MirrorIndex.of(entries);
      for (const entry of entries) expect(index.get(entry.userId)).toEqual(entry);
      clock.advance(5);
      const copy = index.copy();
      for (const entry of entries) expect(copy.get(entry.userId)).toEqual(entry);
    } finally {
      clock.release();
    }
  });

  it('keeps ends in whole ms', () => {
    const index = MirrorIndex.of([{ userId: '111', expiresAt: END + 0.6, viaDiscord: true }]);
    expect(index.get('111')).toEqual({ userId: '111', expiresAt: END + 1, viaDiscord: true });
  });

  it("applies a poll's few changes and many to a copy, to the same entries", () => {
    const id = (i: number) => String(300_000_000_000_000_000n + BigInt(i) * 7_919n);
    const before = Array.from({ length: 200 }, (_, i) => ({
      userId: id(i),
      expiresAt: END + i,
      viaDiscord: i % 2 === 0,
    }));
    const index = MirrorIndex.of([...before, { userId: 'named', expiresAt: END, viaDiscord: true }]);
    for (const count of [3, 150]) {
      const removed = [...before.slice(0, count).map((entry) => entry.userId), 'named'];
      const changed = [
        ...before.slice(count, 2 * count).map((entry) => ({ ...entry, expiresAt: entry.expiresAt + DAY })),
        ...Array.from({ length: count }, (_, i) => ({ userId: id(1_000 + i), expiresAt: END - i, viaDiscord: true })),
      ];
      const updated = index.copy();
      for (const userId of removed) updated.delete(userId);
      for (const entry of changed) updated.set(entry);
      const expected = new Map(before.map((entry) => [entry.userId, entry]));
      for (const userId of removed) expected.delete(userId);
      for (const entry of changed) expected.set(entry.userId, entry);
      expect(new Set(updated.userIds())).toEqual(new Set(expected.keys()));
      for (const entry of expected.values()) expect(updated.get(entry.userId)).toEqual(entry);
      // The original is as it was.
      expect(index.get('named')).toEqual({ userId: 'named', expiresAt: END, viaDiscord: true });
      expect(index.get(id(1_000))).toBeUndefined();
    }
  });
});
