import { describe, expect, it } from '@jest/globals';
import { LIST_SITES } from '../../../src/lists/index.js';
import { AT_NOW, delivery, GUILD, MEMBER, NOW, raw } from '../../support/list-delivery.js';

const { discollab } = LIST_SITES;
const TOKEN = 'dc_91b2e7';
const VOTED = '2026-02-09T00:47:14Z';
// docs.discollab.org/resources/webhooks: a server's fields.
const VOTE = {
  guild_id: GUILD,
  user_id: MEMBER,
  username: 'bob',
  voted_on: VOTED,
  voted_on_iso: VOTED,
  vote_again: 43_200,
  times_voted: 3,
  is_test: false,
};

describe('Discollab deliveries', () => {
  it('take `Bearer <token>` (and the bare token of the older docs); refuse another or none', () => {
    expect(discollab.verify(delivery(VOTE, { authorization: `Bearer ${TOKEN}` }), TOKEN, NOW)).toEqual({ ok: true });
    expect(discollab.verify(delivery(VOTE, { authorization: TOKEN }), TOKEN, NOW)).toEqual({ ok: true });
    expect(discollab.verify(delivery(VOTE, { authorization: 'Bearer nope' }), TOKEN, NOW)).toEqual({
      ok: false,
      refusal: 'wrong-secret',
    });
    expect(discollab.verify(delivery(VOTE), TOKEN, NOW)).toEqual({ ok: false, refusal: 'missing-secret' });
  });

  it('read a vote at voted_on_iso, ending vote_again seconds later', () => {
    const at = Date.parse(VOTED);
    expect(discollab.read(raw(VOTE), AT_NOW)).toEqual({
      ok: true,
      event: {
        site: 'discollab',
        kind: 'vote',
        guildId: GUILD,
        memberId: MEMBER,
        memberName: 'bob',
        at,
        until: at + 43_200_000,
        weight: 1,
      },
    });
  });

  it('read a vote_again above 10^9 as a Unix time, and none as the listing’s length', () => {
    const unix = Date.parse('2026-02-09T12:47:14Z') / 1000;
    const read = discollab.read(raw({ ...VOTE, vote_again: unix }), AT_NOW);
    expect(read.ok && read.event.until).toBe(unix * 1000);
    const none = discollab.read(raw({ ...VOTE, vote_again: undefined }), AT_NOW);
    expect(none.ok && none.event.until).toBe(Date.parse(VOTED) + 86_400_000);
  });

  it('read is_test: true as a test', () => {
    const read = discollab.read(raw({ ...VOTE, is_test: true }), AT_NOW);
    expect(read.ok && read.event.kind).toBe('test');
  });

  it('give a problem, not a throw, for a bot’s body or a bad time', () => {
    expect(discollab.read(raw({ ...VOTE, guild_id: undefined, client_id: GUILD }), AT_NOW)).toEqual({
      ok: false,
      problem: 'guild_id: expected a snowflake (17 to 20 digits)',
    });
    expect(discollab.read(raw({ ...VOTE, voted_on_iso: 'yesterday' }), AT_NOW)).toEqual({
      ok: false,
      problem: 'voted_on_iso: expected an ISO 8601 time',
    });
  });
});
