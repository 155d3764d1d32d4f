// Top.gg as its developer docs describe (github.com/top-gg/developer-docs webhooks/overview.mdx,
// events.mdx; legacy: github.com/top-gg/docs docs/Resources/webhooks.mdx), written from the docs
// alone: the bot's verifier is not used here, so a mistake in one shows against the other.
import { createHmac, randomInt } from 'node:crypto';
import { TIMEOUT_OR_5XX, type Request, type RetryPolicy } from './attempts.js';
import type { SenderVote } from './vote.js';

const HOUR_MS = 3_600_000;

/** v1 secrets are Top.gg's own, `whs_…`; anything else is a legacy Authorization secret. */
const isV1 = (secret: string) => secret.startsWith('whs_');

/** v1: 3 retries after 1, 2, 4 s; v0: 10 retries, 1 s doubling; both on a timeout (5 s) or a 5xx. */
export const topggPolicy = (secret: string): RetryPolicy => ({
  tries: isV1(secret) ? 4 : 11,
  delayMs: (next) => 1000 * 2 ** (next - 2),
  retries: TIMEOUT_OR_5XX,
  timeoutMs: 5_000,
});

/** A Top.gg vote id: made once per vote, kept by every retry of it. */
export const topggVoteId = (now: number) => `${now}${randomInt(100_000, 999_999)}`;

function v1Body(vote: SenderVote, now: number): string {
  const project = { id: '803190510032756736', type: 'server', platform: 'discord', platform_id: vote.guildId };
  const user = {
    id: String(randomInt(1, 2 ** 47)),
    platform_id: vote.memberId,
    name: vote.memberName ?? 'voter',
    avatar_url: 'https://cdn.discordapp.com/embed/avatars/0.png',
  };
  if (vote.test) return JSON.stringify({ type: 'webhook.test', data: { user, project } });
  const data = {
    id: vote.siteEventId ?? topggVoteId(now),
    weight: vote.weight ?? 1,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + (vote.lengthMs ?? 12 * HOUR_MS)).toISOString(),
    project,
    query: {},
    user,
  };
  return JSON.stringify({ type: 'vote.create', data });
}

/** The request Top.gg would send now: signed with the sender's clock, so a skewed `now` plays a stale one. */
export function buildTopgg(url: string, secret: string, vote: SenderVote, now: number): Request {
  if (!isV1(secret)) {
    const body = JSON.stringify({
      guild: vote.guildId,
      user: vote.memberId,
      type: vote.test ? 'test' : 'upvote',
      query: '',
    });
    return { url, headers: { authorization: secret }, body };
  }
  const body = v1Body(vote, now);
  const t = Math.floor(now / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return { url, headers: { 'x-topgg-signature': `t=${t},v1=${v1}`, 'x-topgg-trace': `trace-${t}` }, body };
}
