import { describe, expect, it } from '@jest/globals';
import { safeReturnPath } from '../../../src/dashboard/return-to.js';

/** What a Location header may carry: printable ASCII, no space. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

describe('after sign-in, the page to return to', () => {
  it.each(['/', '/servers/820627321651331072', '/servers/1/reviews?page=2', '/a%20b', '/%2F%2Fevil'])(
    'is %s, a path on this site, as it came',
    (path) => {
      expect(safeReturnPath(path)).toBe(path);
    },
  );

  it.each([
    '//evil.example/',
    '/\\evil.example',
    'https://evil.example/',
    'evil.example',
    '/\t/evil.example',
    '/\n',
    '/..//evil.example',
    '/a/%2e%2e/..//evil.example',
    `/${'é'.repeat(100)}`,
    undefined,
    ['/'],
  ])('is / instead of %p', (next) => {
    expect(safeReturnPath(next)).toBe('/');
  });

  it.each([
    ['/∕∕evil.example', '/%E2%88%95%E2%88%95evil.example'],
    ['/servers/1?name=é', '/servers/1?name=%C3%A9'],
    ['/a b"<>', '/a%20b%22%3C%3E'],
    ['/\ud800', '/%EF%BF%BD'],
    ['/servers/1#top', '/servers/1'],
  ])('is %p percent-encoded: %p', (next, path) => {
    expect(safeReturnPath(next)).toBe(path);
  });

  it.each(['/∕∕evil.example', '/x?q=日本', '/\u2028', '/x\u00a0y', `/${'ü'.repeat(56)}`])(
    'is always a path a Location header can carry, the same when read again: %p',
    (next) => {
      const path = safeReturnPath(next);
      expect(path).toMatch(HEADER_SAFE);
      expect(path.startsWith('/') && !path.startsWith('//')).toBe(true);
      expect(safeReturnPath(path)).toBe(path);
    },
  );
});
