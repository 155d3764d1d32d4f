import type { Interaction } from 'discord.js';
import type { BotContext } from '../runtime/context.js';
import type { ButtonHandler } from '../runtime/context.js';
import { updateInTime } from '../bot/respond.js';
import { Prefix } from '../core/custom-id.js';
import { translatorFor } from '../i18n/index.js';
import type { MessageView } from '../views/message.js';
import { parseVotesPage, votesPage as pageOf, votesView } from '../views/votes.js';

/** Previous/Next on the /votes list: redraws the same message, from the client's cached list. */
export const votesPage: ButtonHandler<number> = {
  kind: 'button',
  prefix: Prefix.votesPage,
  parse: parseVotesPage,
  async run(interaction, page, ctx) {
    await updateInTime(interaction, votesPageWithNames(interaction, page, ctx));
  },
};

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
