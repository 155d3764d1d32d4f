// How each list sends, as its docs describe it (each site's file in src/lists/ names the page); written
// from the docs alone, not from the bot's readers. A new site: its build, its policy and its line below.
import type { AdaptedSiteId } from '../../src/lists/index.js';
import { ONE_TRY, type RetryPolicy } from './attempts.js';
import { buildTopgg, topggPolicy } from './topgg.js';
import type { SenderVote, SiteSender } from './vote.js';

/** docs.discord.place/webhooks: any answer outside 2xx is retried 3 times, 5 s apart. */
const discordplacePolicy: RetryPolicy = {
  tries: 4,
  delayMs: () => 5_000,
  retries: (outcome) => typeof outcome !== 'number' || outcome < 200 || outcome >= 300,
  timeoutMs: 10_000,
};

const buildDiscordplace = (url: string, secret: string, vote: SenderVote) => ({
  url,
  headers: { authorization: secret },
  body: JSON.stringify({ guild: vote.guildId, user: vote.memberId, test: vote.test === true }),
});

/** Discadia documents no retries and no header: the secret is the address's last segment. */
const discadiaPolicy = ONE_TRY;

const buildDiscadia = (url: string, secret: string, vote: SenderVote) => ({
  url: `${url.replace(/\/+$/, '')}/${encodeURIComponent(secret)}`,
  headers: {},
  body: JSON.stringify({
    user_id: vote.memberId,
    guild_id: vote.guildId,
    server_title: 'Example Server',
    server_slug: 'example-server',
    vote_url: 'https://discadia.com/vote/example-server',
  }),
});

/** discordlist.space documents no retries. */
const discordlistspacePolicy = ONE_TRY;

const buildDiscordlistspace = (url: string, secret: string, vote: SenderVote) => {
  const user = { id: vote.memberId, username: vote.memberName ?? 'voter', discriminator: '0' };
  const review = vote.review ? { review: { id: `r${Date.now()}`, ...vote.review } } : {};
  const body = { trigger: vote.review ? 'review' : 'upvote', user, server: { id: vote.guildId }, ...review };
  return { url, headers: { authorization: secret }, body: JSON.stringify(body) };
};

/** Discollab documents no retries. */
const discollabPolicy = ONE_TRY;

const buildDiscollab = (url: string, secret: string, vote: SenderVote, now: number) => {
  const iso = new Date(now).toISOString();
  const body = {
    guild_id: vote.guildId,
    user_id: vote.memberId,
    username: vote.memberName ?? 'voter',
    voted_on: iso,
    voted_on_iso: iso,
    vote_again: Math.round((vote.lengthMs ?? 43_200_000) / 1000),
    times_voted: 1,
    is_test: vote.test === true,
  };
  return { url, headers: { authorization: `Bearer ${secret}` }, body: JSON.stringify(body) };
};

export const SENDERS: Record<AdaptedSiteId, SiteSender & { policy(secret: string): RetryPolicy }> = {
  topgg: { build: buildTopgg, policy: topggPolicy },
  discordplace: { build: buildDiscordplace, policy: () => discordplacePolicy },
  discadia: { build: buildDiscadia, policy: () => discadiaPolicy },
  discordlistspace: { build: buildDiscordlistspace, policy: () => discordlistspacePolicy },
  discollab: { build: buildDiscollab, policy: () => discollabPolicy },
};
