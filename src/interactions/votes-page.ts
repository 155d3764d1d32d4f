import type { ButtonHandler } from '../bot/handlers.js';
import { updateInTime } from '../bot/respond.js';
import { Prefix } from '../custom-id.js';
import { translatorFor } from '../i18n/index.js';
import { parseVotesPage, votesView } from '../views/votes.js';

/** Previous/Next on the /votes list: redraws the same message, from the client's cached list. */
export const votesPage: ButtonHandler<number> = {
  kind: 'button',
  prefix: Prefix.votesPage,
  parse: parseVotesPage,
  async run(interaction, page, ctx) {
    const i18n = translatorFor(interaction.locale);
    const work = ctx.api.listVotes().then((list) => votesView({ list, page, now: ctx.now(), i18n }));
    await updateInTime(interaction, work);
  },
};
