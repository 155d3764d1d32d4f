import type { Interaction } from 'discord.js';
import type { BotContext } from '../runtime/context.js';
import { Prefix } from '../core/custom-id.js';
import { translatorFor } from '../i18n/index.js';
import type { MessageView } from '../views/message.js';
import { parseVotesPage, votesPage as pageOf, votesView } from '../views/votes.js';
import { pageButton } from './page-button.js';

/** Previous/Next on the /votes list: redraws the same message, from the client's cached list. */
export const votesPage = pageButton({ prefix: Prefix.votesPage, parse: parseVotesPage, draw: votesPageWithNames });

/** A page of /votes with the names of its members beside their mentions (/votes and its buttons). */
export async function votesPageWithNames(
  interaction: Interaction,
  page: number,
  ctx: BotContext,
): Promise<MessageView> {
  const list = await ctx.api.listVotes();
  const ids = pageOf(list, page).items.map((vote) => vote.userId);
  const names = await ctx.names.resolve(interaction.guild, ids);
  return votesView({ list, page, now: ctx.now(), i18n: translatorFor(interaction.locale), names });
}
