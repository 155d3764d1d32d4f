import { SlashCommandBuilder, InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import type { BotContext } from '../src/runtime/context.js';
import { commandNamed, isEphemeral, memberOption, publicOption, targetUser } from '../src/bot/command-options.js';
import { replyInTime } from '../src/bot/respond.js';
import { translatorFor } from '../src/i18n/index.js';
import { SITE_FACTS, type AdaptedSiteId } from '../src/lists/index.js';
import type { RunningListVote } from '../src/store/index.js';
import { voteView, type ListVoteLine } from '../src/views/vote.js';

export const data = commandNamed(new SlashCommandBuilder(), 'vote')
  .setContexts(InteractionContextType.Guild)
  .addUserOption(memberOption('option.vote.member.description'))
  .addBooleanOption(publicOption('option.vote.public.description'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
  const user = targetUser(interaction);
  const self = user.id === interaction.user.id;
  const i18n = translatorFor(interaction.locale);
  const { voteUrl } = ctx.settings;
  // A vote the mirror shows as active is answered from it: no service call, no wait.
  const mirrored = await ctx.votes?.activeVote(user.id);
  const status = mirrored ? Promise.resolve(mirrored) : ctx.api.getVote(user.id);
  // A running vote the service shows makes the vote known (voter role); not awaited before the answer.
  if (!mirrored)
    void status.then(
      (s) => ctx.votes?.learned(user.id, s),
      () => undefined,
    );
  // From memory once loaded; a slow or failing store leaves the streak out rather than the answer waiting.
  const streak = ctx.streaks.streakOf(user.id, ctx.now().getTime()).catch(() => undefined);
  const lists = listLines(interaction.guildId!, user.id, ctx);
  const work = Promise.all([status, streak, lists]).then(([status, streak, lists]) =>
    voteView({ userId: user.id, self, status, now: ctx.now(), voteUrl, streak, i18n, ...(lists ? { lists } : {}) }),
  );
  await replyInTime(interaction, work, { ephemeral: isEphemeral(interaction) });
}

/**
 * A line per list the server is on besides Guilds, from the ledger; none for a server on Guilds
 * alone (no store read). A slow or failing store leaves the lines out rather than the answer waiting.
 */
async function listLines(guildId: string, userId: string, ctx: BotContext): Promise<ListVoteLine[] | undefined> {
  const sites = ctx.servers.listings.sites(guildId);
  if (sites.length === 0) return undefined;
  const running = await ctx.ledger.runningVotesOf(userId, ctx.now().getTime()).catch(() => undefined);
  if (!running) return undefined;
  return sites.map((site) => lineOf(site, guildId, running));
}

function lineOf(site: AdaptedSiteId, guildId: string, running: readonly RunningListVote[]): ListVoteLine {
  const facts = SITE_FACTS[site];
  const line: ListVoteLine = { name: facts.name };
  const vote = running.find((entry) => entry.site === site);
  if (vote) line.running = { votedAt: new Date(vote.votedAt), endsAt: new Date(vote.endsAt) };
  if (facts.votePage) line.votePage = facts.votePage(guildId);
  return line;
}
