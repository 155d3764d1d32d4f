// Top.gg, two webhook systems; the listing's secret says which one it uses:
// - v1, a secret starting `whs_` that Top.gg generates on the project's Webhooks page. Each delivery
//   carries `x-topgg-signature: t=<unix seconds>,v1=<hex>`, the HMAC-SHA256 of `<t>.<raw body>` keyed
//   with that secret; a `t` more than 5 minutes off is refused. Events `vote.create` (data.id,
//   weight 1 or 2 on weekends, created_at, expires_at, project.platform_id = the guild id,
//   user.platform_id = the Discord id, user.name) and `webhook.test` (user and project only).
//   Source: github.com/top-gg/developer-docs webhooks/overview.mdx and webhooks/events.mdx
//   (docs.top.gg); the SDK's check: github.com/Top-gg-Community/node-sdk src/structs/Webhook.ts.
// - v0 (legacy), any other secret: Authorization equals the secret the admin typed in the edit
//   form; server body `{guild, user, type: "upvote" | "test", query?}`, no weight, no end. Source:
//   github.com/top-gg/docs docs/Resources/webhooks.mdx. Votes run 12 hours: "users can vote every 12
//   hours" (top-gg/docs content/resources/voting.mdx, written for bots; v1's example expires_at is
//   also 12 h after created_at).
// Retries: v1 up to 3 (1 s, 2 s, 4 s), v0 up to 10 (1 s doubling); both on a timeout (5 s) or 5xx.
// The vote page, https://top.gg/discord/servers/<guild id>/vote: the form of the server vote links
// Top.gg's pages give (top-gg/docs content/resources/voting.mdx names the bots' /bot/<id>/vote).
// Left open: whether v0 ever doubles a server vote (the server schema has no isWeekend): weight 1.
// A v1 weight outside 1-2 (events.mdx knows no other) is counted as the nearest of the two, not
// refused: Top.gg never resends after a 4xx, so a refusal would lose a vote it did sign, and an
// unbounded weight would let one vote outweigh a server's whole ledger (issue 47).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { objectReader, optional, string, Wrong, type Field, type Reader } from '../core/read-shape.js';
import { ACCEPTED, header, refused, verifyShared } from './delivery.js';
import { isoTime, readWith, snowflake, untilFrom } from './read-body.js';
import {
  clampWeight,
  HOUR_MS,
  type Delivery,
  type ListEvent,
  type ListSite,
  type ReadContext,
  type Verdict,
  type WeightRange,
} from './site.js';

const TOPGG_V1_PREFIX = 'whs_';
const TOPGG_SIGNATURE_HEADER = 'x-topgg-signature';
/** How far a signature's time may be from ours, either way (s). */
const TOPGG_TOLERANCE_S = 300;
const VOTE_LENGTH_MS = 12 * HOUR_MS;

const isTopggV1Secret = (secret: string): boolean => secret.startsWith(TOPGG_V1_PREFIX);

/** The signature header's `t` and every `v1`, or undefined when it is not of that form. */
function parseSignature(value: string): { t: string; v1: string[] } | undefined {
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of value.split(',')) {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    const item = part.slice(at + 1).trim();
    if (key === 't') t = item;
    else if (key === 'v1') v1.push(item);
  }
  return t !== undefined && /^\d{1,12}$/.test(t) && v1.length > 0 ? { t, v1 } : undefined;
}

// The signature is checked before the time, so that 'stale-timestamp' is only ever said of a
// delivery Top.gg did sign: a clock that is off, or a replay, not a forgery.
function verifySigned(delivery: Delivery, secret: string, now: number): Verdict {
  const value = header(delivery, TOPGG_SIGNATURE_HEADER);
  if (value === undefined) return refused('missing-secret');
  const signature = parseSignature(value);
  if (!signature) return refused('bad-signature');
  const expected = createHmac('sha256', secret).update(`${signature.t}.`).update(delivery.rawBody).digest();
  const signed = signature.v1.some((hex) => {
    const given = /^[0-9a-f]{64}$/i.test(hex) ? Buffer.from(hex, 'hex') : undefined;
    return given !== undefined && timingSafeEqual(given, expected);
  });
  if (!signed) return refused('bad-signature');
  return Math.abs(now / 1000 - Number(signature.t)) > TOPGG_TOLERANCE_S ? refused('stale-timestamp') : ACCEPTED;
}

const NOT_A_SERVER = new Wrong('expected "server" (this listing is a server)');
const serverProject: Field<string> = (value) => (value === 'server' ? value : NOT_A_SERVER);
/** v1's `weight`: 1, or 2 during the weekend multiplier (events.mdx). */
export const TOPGG_WEIGHTS: WeightRange = { min: 1, max: 2 };
const NOT_A_WEIGHT = new Wrong('expected a whole number');
const weight: Field<{ weight: number; weightSent?: number }> = (value) =>
  typeof value === 'number' && Number.isInteger(value) ? clampWeight(value, TOPGG_WEIGHTS) : NOT_A_WEIGHT;
const NOT_AN_EVENT = new Wrong('expected "vote.create" or "webhook.test"');
const v1Type: Field<'vote.create' | 'webhook.test'> = (value) =>
  value === 'vote.create' || value === 'webhook.test' ? value : NOT_AN_EVENT;
const NOT_A_V0_TYPE = new Wrong('expected "upvote" or "test"');
const v0Type: Field<'upvote' | 'test'> = (value) => (value === 'upvote' || value === 'test' ? value : NOT_A_V0_TYPE);

const readProject = objectReader((at) => {
  at.field('type', serverProject);
  const guildId = at.field('platform_id', snowflake);
  return at.done(() => guildId);
});

const readUser = objectReader((at) => {
  const memberId = at.field('platform_id', snowflake);
  const name = at.field('name', optional(string));
  return at.done(() => ({ memberId, name }));
});

function readV1(context: ReadContext): Reader<ListEvent<'topgg'>> {
  const readVote = objectReader((at) => {
    const id = at.field('id', string);
    const votes = at.field('weight', weight);
    const created = at.field('created_at', isoTime);
    const expires = at.field('expires_at', isoTime);
    const guildId = at.nested('project', readProject);
    const user = at.nested('user', readUser);
    return at.done(() => event('vote', guildId, user, created, expires, votes, id));
  });
  const readTest = objectReader((at) => {
    const guildId = at.nested('project', readProject);
    const user = at.nested('user', readUser);
    return at.done(() => event('test', guildId, user, context.now, context.now, { weight: 1 }, undefined));
  });
  return objectReader((at) => {
    const type = at.field('type', v1Type);
    const data = at.nested('data', (value) => (type === 'webhook.test' ? readTest(value) : readVote(value)));
    return at.done(() => data);
  });
}

function event(
  kind: 'vote' | 'test',
  guildId: string,
  user: { memberId: string; name: string | undefined },
  at: number,
  until: number,
  weight: { weight: number; weightSent?: number },
  siteEventId: string | undefined,
): ListEvent<'topgg'> {
  const read: ListEvent<'topgg'> = { site: 'topgg', kind, guildId, memberId: user.memberId, at, until, ...weight };
  if (user.name !== undefined) read.memberName = user.name;
  if (siteEventId !== undefined) read.siteEventId = siteEventId;
  return read;
}

function readV0(context: ReadContext): Reader<ListEvent<'topgg'>> {
  return objectReader((at) => {
    const guildId = at.field('guild', snowflake);
    const memberId = at.field('user', snowflake);
    const type = at.field('type', v0Type);
    return at.done(() => {
      const test = type === 'test';
      const until = test ? context.now : untilFrom(context.now, context, VOTE_LENGTH_MS);
      const kind = test ? 'test' : 'vote';
      return event(kind, guildId, { memberId, name: undefined }, context.now, until, { weight: 1 }, undefined);
    });
  });
}

/** v1 bodies have `type` and `data`; v0 bodies have `guild`: the body's own shape picks the reader. */
function readEither(rawBody: Buffer, context: ReadContext) {
  return readWith(rawBody, (value) =>
    typeof value === 'object' && value !== null && 'data' in value ? readV1(context)(value) : readV0(context)(value),
  );
}

export const topgg: ListSite<'topgg'> = {
  id: 'topgg',
  name: 'Top.gg',
  secretFrom: 'site',
  secretHint: "Top.gg's webhook secret (whs_…), or the legacy Authorization you typed there",
  auth: 'hmac-signature',
  voteLength: 'payload',
  dedupeWindowMs: HOUR_MS,
  weights: TOPGG_WEIGHTS,
  replyApi: false,
  sendsTests: true,
  votePage: (guildId) => `https://top.gg/discord/servers/${guildId}/vote`,
  verify: (delivery, secret, now) =>
    isTopggV1Secret(secret)
      ? verifySigned(delivery, secret, now)
      : verifyShared(header(delivery, 'authorization'), secret),
  read: readEither,
};
