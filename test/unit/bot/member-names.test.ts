import { describe, expect, it } from '@jest/globals';
import { MemberNames } from '../../../src/bot/member-names.js';

describe('MemberNames', () => {
  it('gives back a remembered name, the newest one for a member', () => {
    const names = new MemberNames();
    names.remember('1', 'Ada');
    names.remember('1', 'Ada L.');
    expect(names.get('1')).toBe('Ada L.');
    expect(names.get('2')).toBeUndefined();
  });

  it('forgets a name after an hour', () => {
    let now = 0;
    const names = new MemberNames(10, 60 * 60_000, () => now);
    names.remember('1', 'Ada');
    now = 59 * 60_000;
    expect(names.get('1')).toBe('Ada');
    now = 61 * 60_000;
    expect(names.get('1')).toBeUndefined();
  });

  it('keeps at most its bound, dropping the longest unrefreshed first', () => {
    const names = new MemberNames(2);
    names.remember('1', 'a');
    names.remember('2', 'b');
    names.remember('1', 'a2');
    names.remember('3', 'c');
    expect([names.get('1'), names.get('2'), names.get('3')]).toEqual(['a2', undefined, 'c']);
  });

  it('resolves known names at once and asks nobody without a guild', async () => {
    const names = new MemberNames();
    names.remember('1', 'Ada');
    const resolved = await names.resolve(null, ['1', '2', '1']);
    expect([...resolved]).toEqual([['1', 'Ada']]);
  });
});
