import type { VoteStatus } from '../api/types.js';
import type { BotContext } from '../runtime/context.js';
import { SITE_FACTS, VOTE_API_SITE, type AdaptedSiteId } from '../lists/index.js';
import type { RunningListVote } from '../store/index.js';
import type { ListVoteLine } from '../views/vote.js';

/** What /vote shows of a member: their vote on Guilds, their streak, and a line per other list. */
export interface MemberVote {
  readonly status: VoteStatus;
  readonly streak: number | undefined;
  readonly lists?: readonly ListVoteLine[];
}

/**
 * A member's vote from the four places that know it. A vote the mirror shows as active is answered
 * from it (no service call, no wait); otherwise the service is asked, and a running vote it shows
 * makes the vote known (the voter role) without the answer waiting. The streak and the other lists
 * come from the store: a slow or failing store leaves them out (logged), never the answer.
 */
export async function memberVote(ctx: BotContext, guildId: string, userId: string): Promise<MemberVote> {
  const mirrored = await ctx.votes?.activeVote(userId);
  const status = mirrored ? Promise.resolve(mirrored) : ctx.api.getVote(userId);
  // A failed call is the answer's own error, shown to the member; the mirror learns nothing from it.
  if (!mirrored)
    void status.then(
      (s) => ctx.votes?.learned(userId, s),
      () => undefined,
    );
  const streak = ctx.streaks.streakOf(userId, ctx.now().getTime()).catch(leftOut(ctx, guildId, 'streak'));
  const lists = listLines(ctx, guildId, userId);
  const [shown, days, lines] = await Promise.all([status, streak, lists]);
  return { status: shown, streak: days, ...(lines ? { lists: lines } : {}) };
}

const leftOut = (ctx: BotContext, guildId: string, part: string) => (err: unknown) => {
  ctx.logger.warn({ err, guildId, part }, '/vote answered without a part the store could not give');
  return undefined;
};

/** A line per list the server is on besides Guilds, from the ledger; none for a server on Guilds alone (no store read). */
async function listLines(ctx: BotContext, guildId: string, userId: string): Promise<ListVoteLine[] | undefined> {
  const sites = ctx.servers.listings.sites(guildId);
  if (sites.length === 0) return undefined;
  const running = await ctx.ledger.runningVotesOf(userId, ctx.now().getTime()).catch(leftOut(ctx, guildId, 'lists'));
  if (!running) return undefined;
  const asked = await topggVote(ctx, sites, running, userId);
  return sites.map((site) => lineOf(site, guildId, asked ? [...running, asked] : running));
}

/**
 * The member's running Top.gg vote the ledger lacks (a vote the webhook missed), asked of Top.gg when
 * the server reads it back; none when the ledger has one, or Top.gg does not answer in time.
 */
async function topggVote(
  ctx: BotContext,
  sites: readonly AdaptedSiteId[],
  running: readonly RunningListVote[],
  userId: string,
): Promise<RunningListVote | undefined> {
  if (!ctx.topggVote || !sites.includes(VOTE_API_SITE) || running.some((v) => v.site === VOTE_API_SITE))
    return undefined;
  const found = await ctx.topggVote(userId).catch(() => undefined);
  return found && { site: VOTE_API_SITE, ...found };
}

function lineOf(site: AdaptedSiteId, guildId: string, running: readonly RunningListVote[]): ListVoteLine {
  const facts = SITE_FACTS[site];
  const line: ListVoteLine = { name: facts.name };
  const vote = running.find((entry) => entry.site === site);
  if (vote) line.running = { votedAt: new Date(vote.votedAt), endsAt: new Date(vote.endsAt) };
  if (facts.votePage) line.votePage = facts.votePage(guildId);
  return line;
}
