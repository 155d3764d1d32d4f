import { describe, expect, it } from '@jest/globals';
import { LIST_SITES } from '../../../src/lists/index.js';
import { AT_NOW, delivery, GUILD, MEMBER, NOW, raw } from '../../support/list-delivery.js';

const { discordplace } = LIST_SITES;
const TOKEN = 'dp_7f3a9c1e5b';
// docs.discord.place/webhooks: a server's body.
const VOTE = { guild: GUILD, user: MEMBER, test: false };

describe('discord.place deliveries', () => {
  it('take Authorization equal to the token; refuse another, none, or any with an empty listing secret', () => {
    expect(discordplace.verify(delivery(VOTE, { authorization: TOKEN }), TOKEN, NOW)).toEqual({ ok: true });
    expect(discordplace.verify(delivery(VOTE, { authorization: `${TOKEN}x` }), TOKEN, NOW)).toEqual({
      ok: false,
      refusal: 'wrong-secret',
    });
    expect(discordplace.verify(delivery(VOTE), TOKEN, NOW)).toEqual({ ok: false, refusal: 'missing-secret' });
    expect(discordplace.verify(delivery(VOTE, { authorization: 'x' }), '', NOW)).toEqual({
      ok: false,
      refusal: 'wrong-secret',
    });
  });

  it('read a vote as running 24 hours from its arrival, or as long as the listing says', () => {
    expect(discordplace.read(raw(VOTE), AT_NOW)).toEqual({
      ok: true,
      event: {
        site: 'discordplace',
        kind: 'vote',
        guildId: GUILD,
        memberId: MEMBER,
        at: NOW,
        until: NOW + 86_400_000,
        weight: 1,
      },
    });
    const read = discordplace.read(raw(VOTE), { now: NOW, voteLengthMs: 3_600_000 });
    expect(read.ok && read.event.until).toBe(NOW + 3_600_000);
  });

  it('read a body without `test` (the older docs) as a vote, and test: true as a test', () => {
    const older = discordplace.read(raw({ guild: GUILD, user: MEMBER }), AT_NOW);
    expect(older.ok && older.event.kind).toBe('vote');
    const test = discordplace.read(raw({ ...VOTE, test: true }), AT_NOW);
    expect(test.ok && test.event.kind).toBe('test');
  });

  it("give a problem, not a throw, for a bot's body or wrong types", () => {
    expect(discordplace.read(raw({ bot: GUILD, user: MEMBER }), AT_NOW)).toEqual({
      ok: false,
      problem: 'guild: expected a snowflake (17 to 20 digits)',
    });
    expect(discordplace.read(raw({ ...VOTE, test: 'yes' }), AT_NOW)).toEqual({
      ok: false,
      problem: 'test: expected a boolean',
    });
    expect(discordplace.read(raw(null), AT_NOW)).toEqual({ ok: false, problem: 'body: expected an object' });
  });
});
