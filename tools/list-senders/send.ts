// Deliveries the way each list sends them, for the tests, the playground and the bench.
import { LIST_SITE_IDS, type AdaptedSiteId } from '../../src/lists/index.js';
import { sendWithRetries, type ListAttempt, type Request } from './attempts.js';
import { SENDERS } from './senders.js';
import { topggVoteId } from './topgg.js';
import type { SenderVote } from './vote.js';

/**
 * A listing secret for every list, made up for a local run (`who`: playground, bench…): Top.gg's is a
 * v1 (signed) one, `whs_…`; the others a token of the form each site takes.
 */
export function sampleSecrets(who: string): Readonly<Record<AdaptedSiteId, string>> {
  const secret = (site: AdaptedSiteId) =>
    site === 'topgg' ? `whs_${who}0123456789abcdef` : `${who}-${site}-token-0123`;
  return Object.fromEntries(LIST_SITE_IDS.map((site) => [site, secret(site)])) as Record<AdaptedSiteId, string>;
}

export interface SendAs {
  /** The listing's address (for Discadia, without the secret: the sender adds it). */
  url: string;
  secret: string;
  vote: SenderVote;
  /** Multiplies the site's retry waits: 0.001 in tests. */
  delayScale?: number;
}

/** Sends `vote` as `site` does, retrying as it documents; `status` is the last try's outcome. */
export async function sendAs(
  site: AdaptedSiteId,
  { url, secret, vote, delayScale }: SendAs,
): Promise<{ status: ListAttempt['outcome']; attempts: ListAttempt[] }> {
  const sender = SENDERS[site];
  // The vote's id is made before the first try: a site retries the same vote, not a new one.
  const once: SenderVote = { ...vote, siteEventId: vote.siteEventId ?? topggVoteId(vote.now ?? Date.now()) };
  const attempts = await sendWithRetries(
    () => sender.build(url, secret, once, once.now ?? Date.now()),
    sender.policy(secret),
    delayScale,
  );
  return { status: attempts.at(-1)!.outcome, attempts };
}

/** The one request `site` would send now for `vote`, built once: sent twice, it is the same delivery repeated. */
export function requestAs(site: AdaptedSiteId, { url, secret, vote }: Omit<SendAs, 'delayScale'>): Request {
  return SENDERS[site].build(url, secret, vote, vote.now ?? Date.now());
}

/** POSTs a request as built, once. */
export async function post({ url, headers, body }: Request): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}
