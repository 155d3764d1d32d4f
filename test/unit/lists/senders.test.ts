import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIST_SITE_IDS, LIST_SITES, SITE_FACTS, type AdaptedSiteId, type Delivery } from '../../../src/lists/index.js';
import { sampleSecrets, sendAs } from '../../../tools/list-senders/send.js';
import { GUILD, MEMBER } from '../../support/list-delivery.js';

// Each sender is written from its site's docs, each verifier too: a real delivery over loopback
// from one must pass the other, so a mistake in either shows here.

interface Heard {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  path: string;
}
const heard: Heard[] = [];
/** Statuses to answer with, in turn; 200 once they run out. */
let answers: number[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      heard.push({ headers: request.headers, rawBody: Buffer.concat(chunks), path: request.url ?? '' });
      response.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/${GUILD}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const SECRETS = sampleSecrets('unit');

async function deliver(site: AdaptedSiteId, vote: Parameters<typeof sendAs>[1]['vote'], secret = SECRETS[site]) {
  heard.length = 0;
  const sent = await sendAs(site, { url: `${base}/${site}`, secret, vote, delayScale: 0.001 });
  const last = heard.at(-1)!;
  const pathSecret = site === 'discadia' ? decodeURIComponent(last.path.split('/').at(-1)!) : undefined;
  const delivery: Delivery = { headers: last.headers, rawBody: last.rawBody, ...(pathSecret ? { pathSecret } : {}) };
  return { sent, delivery };
}

describe('a sender playing each list', () => {
  for (const site of LIST_SITE_IDS) {
    it(`delivers a ${site} vote that ${site}'s verifier takes and reads as that vote`, async () => {
      const { sent, delivery } = await deliver(site, { guildId: GUILD, memberId: MEMBER, memberName: 'bob' });
      expect(sent).toMatchObject({ status: 200, attempts: [{ outcome: 200 }] });
      expect(LIST_SITES[site].verify(delivery, SECRETS[site], Date.now())).toEqual({ ok: true });
      const read = LIST_SITES[site].read(delivery.rawBody, { now: Date.now() });
      expect(read).toMatchObject({
        ok: true,
        event: { site, kind: 'vote', guildId: GUILD, memberId: MEMBER, weight: 1 },
      });
    });
  }

  it('delivers a test from each list that sends tests, read as a test', async () => {
    for (const site of LIST_SITE_IDS.filter((id) => SITE_FACTS[id].sendsTests)) {
      const { delivery } = await deliver(site, { guildId: GUILD, memberId: MEMBER, test: true });
      expect(LIST_SITES[site].verify(delivery, SECRETS[site], Date.now())).toEqual({ ok: true });
      expect(LIST_SITES[site].read(delivery.rawBody, { now: Date.now() })).toMatchObject({ event: { kind: 'test' } });
    }
  });

  it('delivers a Top.gg legacy vote with its Authorization secret', async () => {
    const { delivery } = await deliver('topgg', { guildId: GUILD, memberId: MEMBER }, 'typed-in-the-edit-form');
    expect(delivery.headers['x-topgg-signature']).toBeUndefined();
    expect(LIST_SITES.topgg.verify(delivery, 'typed-in-the-edit-form', Date.now())).toEqual({ ok: true });
  });

  it('delivers a Top.gg weekend vote that counts twice, and one from a clock 6 minutes off that is refused', async () => {
    const weekend = await deliver('topgg', { guildId: GUILD, memberId: MEMBER, weight: 2 });
    expect(LIST_SITES.topgg.read(weekend.delivery.rawBody, { now: Date.now() })).toMatchObject({
      event: { weight: 2 },
    });
    const skewed = await deliver('topgg', { guildId: GUILD, memberId: MEMBER, now: Date.now() - 360_000 });
    expect(LIST_SITES.topgg.verify(skewed.delivery, SECRETS.topgg, Date.now())).toEqual({
      ok: false,
      refusal: 'stale-timestamp',
    });
  });

  it('delivers a discordlist.space review that reads as that review', async () => {
    const review = { content: 'Friendly moderators.', rating: 5 };
    const { delivery } = await deliver('discordlistspace', { guildId: GUILD, memberId: MEMBER, review });
    expect(LIST_SITES.discordlistspace.read(delivery.rawBody, { now: Date.now() })).toMatchObject({
      event: { kind: 'review', review },
    });
  });
});

describe('a sender retrying as its list documents', () => {
  it('Top.gg v1 retries a 5xx up to 3 times, and never a 4xx', async () => {
    answers = [503, 502, 500, 503];
    const failing = await deliver('topgg', { guildId: GUILD, memberId: MEMBER });
    expect(failing.sent.attempts.map((attempt) => attempt.outcome)).toEqual([503, 502, 500, 503]);
    answers = [401];
    const refused = await deliver('topgg', { guildId: GUILD, memberId: MEMBER });
    expect(refused.sent.attempts.map((attempt) => attempt.outcome)).toEqual([401]);
  });

  it('Top.gg v1 keeps one vote id across its retries, as Top.gg does, and makes a new one per vote', async () => {
    const idsOf = (from: number) =>
      heard.slice(from).map((h) => (JSON.parse(h.rawBody.toString('utf8')) as { data: { id: string } }).data.id);
    let from = heard.length;
    answers = [503, 500, 200];
    await sendAs('topgg', {
      url: base,
      secret: SECRETS.topgg,
      vote: { guildId: GUILD, memberId: MEMBER },
      delayScale: 0,
    });
    const retried = idsOf(from);
    expect(retried).toHaveLength(3);
    expect(new Set(retried).size).toBe(1);
    from = heard.length;
    await sendAs('topgg', {
      url: base,
      secret: SECRETS.topgg,
      vote: { guildId: GUILD, memberId: MEMBER },
      delayScale: 0,
    });
    expect(idsOf(from)[0]).not.toBe(retried[0]);
  });

  it('discord.place retries anything outside 2xx, 4xx included, 3 times', async () => {
    answers = [401, 401, 200];
    const { sent } = await deliver('discordplace', { guildId: GUILD, memberId: MEMBER });
    expect(sent.attempts.map((attempt) => attempt.outcome)).toEqual([401, 401, 200]);
  });

  it('a list that documents no retries tries once', async () => {
    answers = [503];
    const { sent } = await deliver('discadia', { guildId: GUILD, memberId: MEMBER });
    expect(sent).toMatchObject({ status: 503, attempts: [{ outcome: 503 }] });
  });
});
