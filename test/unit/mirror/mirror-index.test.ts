import { describe, expect, it } from '@jest/globals';
import { MirrorIndex } from '../../../src/mirror/mirror-index.js';

const END = Date.UTC(2026, 10, 26, 18, 0, 0);

describe('MirrorIndex', () => {
  it('gives back each entry as set, whichever way the member voted', () => {
    const index = MirrorIndex.of([
      { userId: '111', expiresAt: END, viaDiscord: true },
      { userId: '222', expiresAt: END + 1_500.5, viaDiscord: false },
    ]);
    expect(index.get('111')).toEqual({ userId: '111', expiresAt: END, viaDiscord: true });
    expect(index.get('222')).toEqual({ userId: '222', expiresAt: END + 1_500.5, viaDiscord: false });
    expect(index.expiresAt('222')).toBe(END + 1_500.5);
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
});
