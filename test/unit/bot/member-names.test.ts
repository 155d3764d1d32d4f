import { describe, expect, it } from '@jest/globals';
import { MemberNames } from '../../../src/bot/member-names.js';

const SERVER = '100000000000000001';
const OTHER = '100000000000000002';

describe('MemberNames', () => {
  it('gives back a remembered name, the newest one for a member', () => {
    const names = new MemberNames();
    names.remember(SERVER, '1', 'Ada');
    names.remember(SERVER, '1', 'Ada L.');
    expect(names.get(SERVER, '1')).toBe('Ada L.');
    expect(names.get(SERVER, '2')).toBeUndefined();
  });

  it('forgets a name after an hour', () => {
    let now = 0;
    const names = new MemberNames(10, 60 * 60_000, () => now);
    names.remember(SERVER, '1', 'Ada');
    now = 59 * 60_000;
    expect(names.get(SERVER, '1')).toBe('Ada');
    now = 61 * 60_000;
    expect(names.get(SERVER, '1')).toBeUndefined();
  });

  it('keeps at most its bound, dropping the longest unrefreshed first', () => {
    const names = new MemberNames(2);
    names.remember(SERVER, '1', 'a');
    names.remember(SERVER, '2', 'b');
    names.remember(SERVER, '1', 'a2');
    names.remember(SERVER, '3', 'c');
    expect([names.get(SERVER, '1'), names.get(SERVER, '2'), names.get(SERVER, '3')]).toEqual(['a2', undefined, 'c']);
  });

  it('resolves known names at once and asks nobody without a guild', async () => {
    const names = new MemberNames();
    names.remember(SERVER, '1', 'Ada');
    const resolved = await names.resolve(SERVER, null, ['1', '2', '1']);
    expect([...resolved]).toEqual([['1', 'Ada']]);
  });

  it('shows a name only in the server it was learned in', async () => {
    const names = new MemberNames();
    names.remember(OTHER, '1', 'nitro gift https://evil.example', 'delivery');
    names.remember(OTHER, '2', 'Grace');
    expect(names.get(SERVER, '1')).toBeUndefined();
    expect(names.of(SERVER).get('2')).toBeUndefined();
    expect([...(await names.of(SERVER).resolve(null, ['1', '2']))]).toEqual([]);
    expect(names.of(OTHER).get('2')).toBe('Grace');
  });

  it("never lets a delivery's name replace Discord's, and shows it only while Discord has none", () => {
    const names = new MemberNames();
    const server = names.of(SERVER);
    server.remember('1', 'from a list', 'delivery');
    expect(server.get('1')).toBe('from a list');
    expect(server.get('1', 'discord')).toBeUndefined();
    server.remember('1', 'Ada');
    server.remember('1', 'changed by a list', 'delivery');
    expect(server.get('1')).toBe('Ada');
    expect(server.get('1', 'delivery')).toBe('changed by a list');
  });
});
