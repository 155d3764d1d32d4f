import {
  buttonClick,
  member,
  modalSubmit,
  MODERATOR_PERMISSIONS,
  OptionType,
  slashCommand,
  type DiscordStandIn,
  type InteractionHandle,
  type MemberPayload,
  type Message,
} from './discord-standin/index.js';

/** Short, readable ways for e2e tests to act as members in the stand-in. */
export function asMember(discord: DiscordStandIn, who: MemberPayload = member(), locale?: string) {
  return {
    who,
    command(name: string, options: Record<string, string | boolean> = {}): InteractionHandle {
      return discord.sendInteraction(slashCommand({ name, member: who, options: commandOptions(options), locale }));
    },
    /** `/name sub`, e.g. `/remind on`: Discord sends the subcommand as the one option, carrying its own. */
    subcommand(name: string, sub: string, options: Record<string, string | boolean> = {}): InteractionHandle {
      const opts = [{ name: sub, type: OptionType.Subcommand, options: commandOptions(options) }];
      return discord.sendInteraction(slashCommand({ name, member: who, options: opts, locale }));
    },
    click(message: Message, customId: string): InteractionHandle {
      return discord.sendInteraction(buttonClick({ customId, message, member: who, locale }));
    },
    submitReply(message: Message, reviewId: string, content: string, pinned: 'yes' | 'no' = 'no'): InteractionHandle {
      return discord.sendInteraction(
        modalSubmit({
          customId: `review-reply-submit:${reviewId}`,
          fields: { 'reply-content': content },
          selects: { 'reply-pinned': [pinned] },
          member: who,
          message,
          locale,
        }),
      );
    },
  };
}

function commandOptions(options: Record<string, string | boolean>) {
  return Object.entries(options).map(([optionName, value]) => ({
    name: optionName,
    type:
      typeof value === 'boolean' ? OptionType.Boolean : optionName === 'member' ? OptionType.User : OptionType.String,
    value,
  }));
}

export const moderator = () => member({ permissions: MODERATOR_PERMISSIONS });

/** Custom ids of the buttons on a message, in order. */
export function buttonIds(message: Message): string[] {
  return message.components.flatMap((row: { components: Array<{ custom_id?: string }> }) =>
    row.components.map((c) => c.custom_id).filter((id): id is string => id !== undefined),
  );
}

/** Everything a member reads in a message, flattened for text assertions. */
export function textOf(message: Message): string {
  return [
    message.content,
    ...message.embeds.flatMap(
      (e: {
        title?: string;
        description?: string;
        fields?: Array<{ name: string; value: string }>;
        footer?: { text: string };
      }) => [e.title, e.description, ...(e.fields ?? []).flatMap((f) => [f.name, f.value]), e.footer?.text],
    ),
  ]
    .filter(Boolean)
    .join('\n');
}
