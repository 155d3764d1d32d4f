import { describe, expect, it } from '@jest/globals';
import { LIST_SITES } from '../../../src/lists/index.js';
import { AT_NOW, delivery, GUILD, MEMBER, NOW, raw } from '../../support/list-delivery.js';

const { discordlistspace } = LIST_SITES;
const TOKEN = 'dls-token-5b8e';
const user = { id: MEMBER, username: 'bob', discriminator: '0' };
const UPVOTE = { trigger: 'upvote', user, server: { id: GUILD } };

describe('discordlist.space deliveries', () => {
  it('take Authorization equal to the token, and refuse another or none', () => {
    expect(discordlistspace.verify(delivery(UPVOTE, { authorization: TOKEN }), TOKEN, NOW)).toEqual({ ok: true });
    expect(discordlistspace.verify(delivery(UPVOTE, { authorization: 'Bearer x' }), TOKEN, NOW)).toEqual({
      ok: false,
      refusal: 'wrong-secret',
    });
    expect(discordlistspace.verify(delivery(UPVOTE), TOKEN, NOW)).toEqual({ ok: false, refusal: 'missing-secret' });
  });

  it('read an upvote as a 24-hour vote with the voter’s name', () => {
    expect(discordlistspace.read(raw(UPVOTE), AT_NOW)).toEqual({
      ok: true,
      event: {
        site: 'discordlistspace',
        kind: 'vote',
        guildId: GUILD,
        memberId: MEMBER,
        memberName: 'bob',
        at: NOW,
        until: NOW + 86_400_000,
        weight: 1,
      },
    });
  });

  it('read a review, under `review` or beside the trigger, with a link to the server’s page', () => {
    const nested = discordlistspace.read(
      raw({ ...UPVOTE, trigger: 'review', review: { id: 77, content: 'Friendly.', rating: 5 } }),
      AT_NOW,
    );
    expect(nested.ok && nested.event).toMatchObject({
      kind: 'review',
      review: { id: '77', content: 'Friendly.', rating: 5, url: `https://discordlist.space/server/${GUILD}` },
    });
    const flat = discordlistspace.read(raw({ ...UPVOTE, trigger: 'review', content: 'Nice.', stars: 4 }), AT_NOW);
    expect(flat.ok && flat.event.review).toEqual({
      id: `member-${MEMBER}`,
      content: 'Nice.',
      rating: 4,
      url: `https://discordlist.space/server/${GUILD}`,
    });
  });

  it('give a problem, not a throw, for an unknown trigger or a missing server', () => {
    expect(discordlistspace.read(raw({ ...UPVOTE, trigger: 'botInvite' }), AT_NOW)).toEqual({
      ok: false,
      problem: 'trigger: expected "upvote" or "review"',
    });
    expect(discordlistspace.read(raw({ trigger: 'upvote', user }), AT_NOW)).toEqual({
      ok: false,
      problem: 'server: expected an object',
    });
  });
});
