import { describe, expect, it } from '@jest/globals';
import { DISCADIA_DEDUPE_WINDOW_MS, LIST_SITES } from '../../../src/lists/index.js';
import { AT_NOW, delivery, GUILD, MEMBER, NOW, raw } from '../../support/list-delivery.js';

const { discadia } = LIST_SITES;
const SECRET = 'k3q9v2m8x1';
// discadia.com/help/vote-webhooks, as its sample body.
const VOTE = {
  user_id: MEMBER,
  guild_id: GUILD,
  server_title: 'Example Server',
  server_slug: 'example-server',
  vote_url: 'https://discadia.com/vote/example-server',
};

describe('Discadia deliveries', () => {
  it('take the secret from the address, and refuse another or none', () => {
    expect(discadia.verify(delivery(VOTE, {}, SECRET), SECRET, NOW)).toEqual({ ok: true });
    expect(discadia.verify(delivery(VOTE, {}, SECRET.toUpperCase()), SECRET, NOW)).toEqual({
      ok: false,
      refusal: 'wrong-secret',
    });
    expect(discadia.verify(delivery(VOTE), SECRET, NOW)).toEqual({ ok: false, refusal: 'missing-secret' });
    expect(discadia.verify(delivery(VOTE, { authorization: SECRET }), SECRET, NOW)).toEqual({
      ok: false,
      refusal: 'missing-secret',
    });
  });

  it('read a vote as running 24 hours, and say repeats within an hour are one vote', () => {
    expect(discadia.read(raw(VOTE), AT_NOW)).toEqual({
      ok: true,
      event: {
        site: 'discadia',
        kind: 'vote',
        guildId: GUILD,
        memberId: MEMBER,
        at: NOW,
        until: NOW + 86_400_000,
        weight: 1,
      },
    });
    expect(DISCADIA_DEDUPE_WINDOW_MS).toBe(3_600_000);
    expect(discadia.dedupeWindowMs).toBe(DISCADIA_DEDUPE_WINDOW_MS);
  });

  it('give a problem, not a throw, for a body of the wrong shape', () => {
    expect(discadia.read(raw({ ...VOTE, user_id: 42 }), AT_NOW)).toEqual({
      ok: false,
      problem: 'user_id: expected a snowflake (17 to 20 digits)',
    });
    expect(discadia.read(raw('a string'), AT_NOW)).toEqual({ ok: false, problem: 'body: expected an object' });
  });
});
