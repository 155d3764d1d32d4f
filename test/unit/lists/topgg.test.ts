import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { LIST_SITES } from '../../../src/lists/index.js';
import { AT_NOW, delivery, GUILD, MEMBER, NOW, raw } from '../../support/list-delivery.js';

const { topgg } = LIST_SITES;
const SECRET = 'whs_0123456789abcdef';
const T = 1770598034; // the example's created_at, in seconds

// The vote.create example of webhooks/events.mdx, as one server's vote (placeholders filled in).
const BODY =
  '{"type":"vote.create","data":{"id":"808499215864008704","weight":1,' +
  '"created_at":"2026-02-09T00:47:14.2510149+00:00","expires_at":"2026-02-09T12:47:14.2510149+00:00",' +
  `"project":{"id":"803190510032756736","type":"server","platform":"discord","platform_id":"${GUILD}"},` +
  '"query":{"key1":"value","key2":"value2"},' +
  `"user":{"id":"803190510032756737","platform_id":"${MEMBER}","name":"bob",` +
  '"avatar_url":"https://cdn.discordapp.com/embed/avatars/0.png"}}}';

/** The documented formula: HMAC-SHA256 of `<t>.<raw body>`, keyed with the whs_ secret, in hex. */
const sign = (t: number, body: string, secret = SECRET) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
const signed = (body: string, header = sign(T, body)) => delivery(body, { 'x-topgg-signature': header });

describe('Top.gg v1 deliveries', () => {
  it('sign the example the way a fixed vector says, so a change of formula is caught', () => {
    expect(sign(T, BODY)).toBe('t=1770598034,v1=a8e6823781db208ace6f61870adef0df2982723b98b9bdfbc5b9d30203bd29e2');
    expect(topgg.verify(signed(BODY, sign(T, BODY)), SECRET, NOW)).toEqual({ ok: true });
  });

  it('read a vote.create as a vote with its id, weight, time and end', () => {
    expect(topgg.read(Buffer.from(BODY), AT_NOW)).toEqual({
      ok: true,
      event: {
        site: 'topgg',
        kind: 'vote',
        guildId: GUILD,
        memberId: MEMBER,
        memberName: 'bob',
        at: Date.parse('2026-02-09T00:47:14.251Z'),
        until: Date.parse('2026-02-09T12:47:14.251Z'),
        weight: 1,
        siteEventId: '808499215864008704',
      },
    });
  });

  it("count a weekend vote as the site's weight says", () => {
    const read = topgg.read(Buffer.from(BODY.replace('"weight":1', '"weight":2')), AT_NOW);
    expect(read.ok && read.event.weight).toBe(2);
  });

  it('count a weight outside the documented 1 to 2 as the nearest of them, keeping what was sent for the log', () => {
    const withWeight = (value: string) =>
      topgg.read(Buffer.from(BODY.replace('"weight":1', `"weight":${value}`)), AT_NOW);
    for (const [sent, counted] of [
      [Number.MAX_SAFE_INTEGER, 2],
      [3, 2],
      [1e300, 2],
      [0, 1],
      [-5, 1],
    ] as const) {
      const read = withWeight(String(sent));
      expect(read.ok && { weight: read.event.weight, weightSent: read.event.weightSent }).toEqual({
        weight: counted,
        weightSent: sent,
      });
    }
    const weekend = withWeight('2');
    expect(weekend.ok && weekend.event).not.toHaveProperty('weightSent');
    for (const value of ['1.5', '"2"', 'null'])
      expect(withWeight(value)).toEqual({ ok: false, problem: expect.stringContaining('weight') });
  });

  it('refuse a signature made with another secret, or over another body', () => {
    expect(topgg.verify(signed(BODY, sign(T, BODY, 'whs_other')), SECRET, NOW)).toEqual({
      ok: false,
      refusal: 'bad-signature',
    });
    expect(topgg.verify(signed(BODY.replace('bob', 'eve'), sign(T, BODY)), SECRET, NOW)).toEqual({
      ok: false,
      refusal: 'bad-signature',
    });
  });

  it('refuse a header that is not t=…,v1=<64 hex>', () => {
    for (const header of ['v1=abc', `t=${T}`, `t=${T},v1=zz`, `t=soon,v1=${'0'.repeat(64)}`, '']) {
      expect(topgg.verify(signed(BODY, header), SECRET, NOW)).toEqual({ ok: false, refusal: 'bad-signature' });
    }
  });

  it('refuse a delivery without the signature header as missing its secret', () => {
    expect(topgg.verify(delivery(BODY), SECRET, NOW)).toEqual({ ok: false, refusal: 'missing-secret' });
  });

  it('refuse a signed time more than 5 minutes away, either way, and take one just within', () => {
    const at = (seconds: number) => topgg.verify(signed(BODY, sign(seconds, BODY)), SECRET, T * 1000);
    expect(at(T - 301)).toEqual({ ok: false, refusal: 'stale-timestamp' });
    expect(at(T + 301)).toEqual({ ok: false, refusal: 'stale-timestamp' });
    expect(at(T - 300)).toEqual({ ok: true });
    expect(at(T + 300)).toEqual({ ok: true });
  });

  it('read webhook.test as a test from the tester', () => {
    const test = {
      type: 'webhook.test',
      data: {
        user: { id: '1', platform_id: MEMBER, name: 'bob', avatar_url: 'x' },
        project: { id: '2', type: 'server', platform: 'discord', platform_id: GUILD },
      },
    };
    expect(topgg.read(raw(test), AT_NOW)).toEqual({
      ok: true,
      event: {
        site: 'topgg',
        kind: 'test',
        guildId: GUILD,
        memberId: MEMBER,
        memberName: 'bob',
        at: NOW,
        until: NOW,
        weight: 1,
      },
    });
  });

  it("give a problem, not a throw, for a bot's vote, an unknown event or a body of the wrong shape", () => {
    const problem = (body: string | Buffer) => topgg.read(Buffer.from(body), AT_NOW);
    expect(problem(BODY.replace('"type":"server"', '"type":"bot"'))).toEqual({
      ok: false,
      problem: 'data.project.type: expected "server" (this listing is a server)',
    });
    expect(problem('{"type":"integration.create","data":{}}')).toMatchObject({ ok: false });
    expect(problem('{"data":[]}')).toMatchObject({ ok: false });
    expect(problem('[1,2]')).toMatchObject({ ok: false });
    expect(problem('not json')).toEqual({ ok: false, problem: 'body: not JSON' });
  });
});

describe('Top.gg legacy (v0) deliveries', () => {
  const V0_SECRET = 'a secret typed in the edit form';
  const vote = { guild: GUILD, user: MEMBER, type: 'upvote', query: '?from=discord' };

  it('take Authorization equal to the secret, and refuse another or none', () => {
    expect(topgg.verify(delivery(vote, { authorization: V0_SECRET }), V0_SECRET, NOW)).toEqual({ ok: true });
    expect(topgg.verify(delivery(vote, { authorization: 'guess' }), V0_SECRET, NOW)).toEqual({
      ok: false,
      refusal: 'wrong-secret',
    });
    expect(topgg.verify(delivery(vote), V0_SECRET, NOW)).toEqual({ ok: false, refusal: 'missing-secret' });
  });

  it('never take a v0 Authorization header for a v1 (whs_) listing', () => {
    expect(topgg.verify(delivery(vote, { authorization: SECRET }), SECRET, NOW)).toEqual({
      ok: false,
      refusal: 'missing-secret',
    });
  });

  it('read an upvote as a 12-hour vote, or as long as the listing says', () => {
    expect(topgg.read(raw(vote), AT_NOW)).toEqual({
      ok: true,
      event: {
        site: 'topgg',
        kind: 'vote',
        guildId: GUILD,
        memberId: MEMBER,
        at: NOW,
        until: NOW + 12 * 3_600_000,
        weight: 1,
      },
    });
    const read = topgg.read(raw(vote), { now: NOW, voteLengthMs: 60_000 });
    expect(read.ok && read.event.until).toBe(NOW + 60_000);
  });

  it('read type "test" as a test, and a wrong type as a problem', () => {
    const read = topgg.read(raw({ ...vote, type: 'test' }), AT_NOW);
    expect(read.ok && read.event.kind).toBe('test');
    expect(topgg.read(raw({ ...vote, type: 'downvote' }), AT_NOW)).toEqual({
      ok: false,
      problem: 'type: expected "upvote" or "test"',
    });
  });
});
