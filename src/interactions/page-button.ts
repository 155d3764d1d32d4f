import type { ButtonInteraction } from 'discord.js';
import type { Gate } from '../bot/permissions.js';
import { updateInTime } from '../bot/respond.js';
import type { BotContext, ButtonHandler } from '../runtime/context.js';
import type { MessageView } from '../views/message.js';

interface PageButton<Arg> {
  prefix: string;
  parse(arg: string): Arg | null;
  gate?: Gate;
  /** The message at the page the button names, as its command first drew it. */
  draw(interaction: ButtonInteraction, page: Arg, ctx: BotContext): Promise<MessageView>;
}

/** Previous/Next under a list: redraws the same message in place at the page its custom id names. */
export function pageButton<Arg>({ prefix, parse, gate, draw }: PageButton<Arg>): ButtonHandler<Arg> {
  return {
    kind: 'button',
    prefix,
    parse,
    gate,
    async run(interaction, page, ctx) {
      await updateInTime(interaction, draw(interaction, page, ctx));
    },
  };
}
