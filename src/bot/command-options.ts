import type {
  SlashCommandBooleanOption,
  SlashCommandBuilder,
  SlashCommandStringOption,
  SlashCommandSubcommandBuilder,
  SlashCommandUserOption,
  ChatInputCommandInteraction,
  User,
} from 'discord.js';
import { english, localizations, type MessageKey } from '../i18n/index.js';
import { isSiteId, SITE_FACTS, SITE_IDS, type SiteId } from '../lists/index.js';

// The options several commands share, named once so the builder and the reader cannot drift apart.
// Discord sends the English name whatever the member's language, so the readers use it.
const MEMBER = english.t('option.member.name');
const PUBLIC = english.t('option.public.name');

type Localizations = ReturnType<typeof localizations>;

/** What commands and options share in the builders. */
interface Localizable {
  setName(name: string): unknown;
  setNameLocalizations(localized: Localizations): unknown;
  setDescription(description: string): unknown;
  setDescriptionLocalizations(localized: Localizations): unknown;
}

/** Sets a name and a description, in English and in every language with a catalog. */
function named<T extends Localizable>(builder: T, name: MessageKey, description: MessageKey): T {
  builder.setName(english.t(name));
  builder.setNameLocalizations(localizations(name));
  builder.setDescription(english.t(description));
  builder.setDescriptionLocalizations(localizations(description));
  return builder;
}

/** The commands the catalogs name: each has `command.<name>.name` and `.description`. */
type CommandName = MessageKey extends infer K ? (K extends `command.${infer N}.name` ? N : never) : never;

/** A command's name and description from the catalogs: `command.<name>.name` and `.description`. */
export const commandNamed = (builder: SlashCommandBuilder, command: CommandName) =>
  named(builder, `command.${command}.name`, `command.${command}.description`);

/** `/remind on|off|status`: a subcommand's name and description, `option.remind.<choice>.*`. */
export const remindChoice = (choice: 'on' | 'off' | 'status') => (subcommand: SlashCommandSubcommandBuilder) =>
  named(subcommand, `option.remind.${choice}.name`, `option.remind.${choice}.description`);

/** `/reviews pending`: a subcommand's name and description, `option.reviews.<choice>.*`. */
export const reviewsChoice = (choice: 'pending') => (subcommand: SlashCommandSubcommandBuilder) =>
  named(subcommand, `option.reviews.${choice}.name`, `option.reviews.${choice}.description`);

/** A part of `/setup` (a subcommand or an option): each has `option.setup.<part>.name` and `.description`. */
export type SetupPart = MessageKey extends infer K ? (K extends `option.setup.${infer P}.name` ? P : never) : never;

export const setupNamed =
  (part: SetupPart) =>
  <T extends Localizable>(builder: T): T =>
    named(builder, `option.setup.${part}.name`, `option.setup.${part}.description`);

/** The English name Discord sends for a part of `/setup`, whatever the member's language. */
export const setupName = (part: SetupPart) => english.t(`option.setup.${part}.name`);

/** `member`: whose answer to show; the caller when left out. */
export const memberOption = (description: MessageKey) => (option: SlashCommandUserOption) =>
  named(option, 'option.member.name', description);

/** `public`: show the answer to the channel instead of only to the caller. */
export const publicOption = (description: MessageKey) => (option: SlashCommandBooleanOption) =>
  named(option, 'option.public.name', description);

/** `month`: a calendar month as YYYY-MM; the command checks what is typed. */
export const monthOption = (description: MessageKey) => (option: SlashCommandStringOption) =>
  named(option, 'option.month.name', description).setMinLength(6).setMaxLength(7);

/** The `month` option as typed, or undefined when it is left out. */
export function monthText(interaction: ChatInputCommandInteraction): string | undefined {
  return interaction.options.getString(english.t('option.month.name')) ?? undefined;
}

/** The `member` option, or the caller when it is left out. */
export function targetUser(interaction: ChatInputCommandInteraction): User {
  return interaction.options.getUser(MEMBER) ?? interaction.user;
}

/** Answers about a member stay between the bot and the caller unless `public:true` is chosen. */
export function isEphemeral(interaction: ChatInputCommandInteraction): boolean {
  return !(interaction.options.getBoolean(PUBLIC) ?? false);
}

const SITE = english.t('option.site.name');

/** `site`: one list to count (each site's own name, Guilds first); every list when left out. */
export const siteOption = (description: MessageKey) => (option: SlashCommandStringOption) =>
  named(option, 'option.site.name', description).addChoices(
    ...SITE_IDS.map((id) => ({ name: SITE_FACTS[id].name, value: id })),
  );

/** The `site` option, or undefined when it is left out (or names no list the bot knows). */
export function siteChoice(interaction: ChatInputCommandInteraction): SiteId | undefined {
  const site = interaction.options.getString(SITE);
  return isSiteId(site) ? site : undefined;
}
