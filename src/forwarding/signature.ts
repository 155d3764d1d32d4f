import { createHmac } from 'node:crypto';

/**
 * `x-vote-signature` as Top.gg's v1 webhooks sign: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">` under the destination's secret, so a verifier written for Top.gg accepts it.
 */
export function voteSignature(secret: string, rawBody: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}
