import { describe, expect, it } from '@jest/globals';
import { loggedPath } from '../../../src/webhooks/logged-path.js';

const A = '111111111111111111';
const SECRET = 'Zx4-discadia-secret-made-by-the-bot_0123';

describe('what the log shows of a refused path', () => {
  it('cuts a Discadia address after the site id, whatever follows the secret, so the secret never shows', () => {
    for (const path of [
      `/webhook/${A}/discadia/${SECRET}/`,
      `/webhook/${A}/discadia/${SECRET}/extra`,
      `/webhook/${A}/discadia/${SECRET}//`,
      `/webhook/${A}/discadia/${encodeURIComponent(SECRET)}/x/y`,
    ])
      expect(loggedPath(path, '/webhook')).toBe(`/webhook/${A}/discadia/...`);
  });

  it('cuts a secret pasted where a server id or a site id belongs, and any path outside the receiver', () => {
    expect(loggedPath(`/webhook/${SECRET}`, '/webhook')).toBe('/webhook/...');
    expect(loggedPath(`/webhook/${A}/${SECRET}/discadia`, '/webhook')).toBe(`/webhook/${A}/...`);
    expect(loggedPath(`/${A}/discadia/${SECRET}/`, '/webhook')).toBe(`/${A}/discadia/...`);
    expect(loggedPath(`/wp-login.php`, '/webhook')).toBe('/...');
  });

  it('shows whole a path made only of the base path, server ids, site ids and empty segments', () => {
    expect(loggedPath(`/webhook/${A}/nosuchlist`, '/webhook')).toBe(`/webhook/${A}/...`);
    expect(loggedPath(`/webhook/${A}/topgg/`, '/webhook')).toBe(`/webhook/${A}/topgg/`);
    expect(loggedPath(`/hooks/in/${A}/guilds`, '/hooks/in')).toBe(`/hooks/in/${A}/guilds`);
    expect(loggedPath('/', '/webhook')).toBe('/');
  });

  it('is bounded in length however many known segments come', () => {
    expect(loggedPath(`/webhook${`/${A}`.repeat(500)}`, '/webhook').length).toBeLessThanOrEqual(120);
  });
});
