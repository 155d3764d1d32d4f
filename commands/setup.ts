import {
  SlashCommandBuilder,
  InteractionContextType,
  MessageFlags,
  PermissionFlagsBits,
  type ChatInputCommandInteraction,
} from 'discord.js';
import type { BaseContext } from '../src/runtime/context.js';
import { commandNamed, setupName, setupNamed, type SetupPart } from '../src/bot/command-options.js';
import type { Gate } from '../src/bot/permissions.js';
import { replyInTime } from '../src/bot/respond.js';
import {
  addOptions,
  booleanOption,
  channelOption,
  integerOption,
  roleOption,
  stringOption,
} from '../src/bot/typed-options.js';
import { BUTTON_URL_MAX } from '../src/core/discord-limits.js';
import { API_TOKEN_MAX } from '../src/core/listing-secret.js';
import { english, localizations, type MessageKey } from '../src/i18n/index.js';
import { LIST_SITES, LISTING_VOTE_HOURS_MAX } from '../src/lists/index.js';
import { TEMPLATE_MAX } from '../src/announce/template.js';
import { STREAK_GRACE_HOURS_MAX } from '../src/streaks/streak.js';
import { announceAnswer } from '../src/setup/announce.js';
import { API_KEY_NAME_MAX, apiKeyCreateAnswer, apiKeyListAnswer, apiKeyRevokeAnswer } from '../src/setup/api-key.js';
import { applyChannel, CHANNEL_KINDS, POSTABLE_CHANNELS, type ChannelKind } from '../src/setup/channel.js';
import { openCredentials } from '../src/setup/credentials.js';
import { applyListingRemove, listingAddAnswer, listingsAnswer } from '../src/setup/listing.js';
import { MILESTONE_PERIODS, MILESTONE_VOTES_MAX, milestoneAnswer } from '../src/setup/milestone.js';
import { resetConfirmView } from '../src/setup/reset.js';
import { applyRole } from '../src/setup/role.js';
import { setupStatus } from '../src/setup/status.js';
import { setupChange, setupStep, type SetupStep } from '../src/setup/steps.js';
import { applyStreak } from '../src/setup/streak.js';
import { applyVoteUrl } from '../src/setup/vote-url.js';
import { webhookAnswer } from '../src/setup/webhook.js';
import { applyForwardRemove, forwardAddAnswer, forwardListAnswer, forwardTestAnswer } from '../src/setup/forward.js';
import { FORWARD_URL_MAX } from '../src/core/forward-url.js';

/** Choices worded by the catalogs, in every language. */
const choices = <V extends string>(values: readonly V[], key: (value: V) => MessageKey) =>
  values.map((value) => ({ name: english.t(key(value)), name_localizations: localizations(key(value)), value }));

// The lists besides Guilds, named as the sites name themselves in every language.
const sites = Object.values(LIST_SITES).map((site) => ({ name: site.name, value: site.id }));
const site = stringOption.required((o) => o.addChoices(...sites));

/** The subcommands that change or show one thing, in the order Discord lists them; each option read typed. */
const STEPS = {
  channel: setupChange(
    {
      kind: stringOption.required((o) =>
        o.addChoices(...choices(Object.keys(CHANNEL_KINDS) as ChannelKind[], (kind) => `setup.kind.${kind}`)),
      ),
      target: channelOption.optional((o) => o.addChannelTypes(...POSTABLE_CHANNELS)),
    },
    (ctx, target, { kind, target: channelId }, actor) => applyChannel(ctx, target, { kind, channelId }, actor),
  ),
  role: setupChange(
    { voter: roleOption.optional(), moderators: roleOption.optional(), remove: roleOption.optional() },
    applyRole,
  ),
  voteUrl: setupChange({ url: stringOption.required((o) => o.setMaxLength(BUTTON_URL_MAX)) }, applyVoteUrl),
  announce: setupStep(
    {
      template: stringOption.optional((o) => o.setMaxLength(TEMPLATE_MAX)),
      firstVote: stringOption.optional((o) => o.setMaxLength(TEMPLATE_MAX)),
      ping: booleanOption.optional(),
      everyList: booleanOption.optional(),
      preview: booleanOption.optional(),
      clear: booleanOption.optional(),
    },
    announceAnswer,
  ),
  streak: setupChange(
    { graceHours: integerOption.required((o) => o.setMinValue(0).setMaxValue(STREAK_GRACE_HOURS_MAX)) },
    applyStreak,
  ),
  webhook: setupStep({ rotate: booleanOption.optional() }, webhookAnswer),
  milestone: setupStep(
    {
      milestoneRole: roleOption.optional(),
      votes: integerOption.optional((o) => o.setMinValue(1).setMaxValue(MILESTONE_VOTES_MAX)),
      period: stringOption.optional((o) =>
        o.addChoices(...choices(MILESTONE_PERIODS, (period) => `setup.period.${period}`)),
      ),
      milestoneRemove: roleOption.optional(),
    },
    (ctx, { milestoneRole, votes, period, milestoneRemove }, call) =>
      milestoneAnswer(ctx, { roleId: milestoneRole, votes, period, remove: milestoneRemove }, call),
  ),
} satisfies Partial<Record<SetupPart, SetupStep>>;

/** `/setup listing add|remove|list`. */
const LISTING = {
  listingAdd: setupStep(
    {
      site,
      rotate: booleanOption.optional(),
      voteHours: integerOption.optional((o) => o.setMinValue(1).setMaxValue(LISTING_VOTE_HOURS_MAX)),
      apiToken: stringOption.optional((o) => o.setMaxLength(API_TOKEN_MAX)),
    },
    listingAddAnswer,
  ),
  listingRemove: setupChange({ site }, applyListingRemove),
  listingList: setupStep({}, (ctx, _input, call) => listingsAnswer(ctx, call)),
} satisfies Partial<Record<SetupPart, SetupStep>>;

/** `/setup forward add|remove|list|test` (issue 51). */
const forwardUrl = stringOption.required((o) => o.setMaxLength(FORWARD_URL_MAX));
const FORWARD = {
  forwardAdd: setupStep({ forwardUrl, forwardRotate: booleanOption.optional() }, forwardAddAnswer),
  forwardRemove: setupChange({ forwardUrl }, applyForwardRemove),
  forwardList: setupStep({}, (ctx, _input, call) => forwardListAnswer(ctx, call)),
  forwardTest: setupStep(
    { forwardUrl: stringOption.optional((o) => o.setMaxLength(FORWARD_URL_MAX)) },
    forwardTestAnswer,
  ),
} satisfies Partial<Record<SetupPart, SetupStep>>;

const keyName = stringOption.required((o) => o.setMaxLength(API_KEY_NAME_MAX));

/** `/setup api-key create|revoke|list`: keys to the vote API (docs/api.md). */
const API_KEY = {
  apiKeyCreate: setupStep({ keyName }, apiKeyCreateAnswer),
  apiKeyRevoke: setupStep({ keyName }, apiKeyRevokeAnswer),
  apiKeyList: setupStep({}, (ctx, _input, call) => apiKeyListAnswer(ctx, call)),
} satisfies Partial<Record<SetupPart, SetupStep>>;

/** The subcommand groups, each under its own name. */
const GROUPS = [
  ['listing', LISTING],
  ['apiKey', API_KEY],
  ['forward', FORWARD],
] as const satisfies ReadonlyArray<readonly [SetupPart, Partial<Record<SetupPart, SetupStep>>]>;

const RESET = setupStep({}, (_ctx, _input, { i18n }) => resetConfirmView(i18n));

const subcommand =
  (part: SetupPart, { options }: SetupStep) =>
  (sub: Parameters<typeof addOptions>[0]) =>
    addOptions(setupNamed(part)(sub), options, (name) => setupNamed(name as SetupPart));

const entries = <T extends object>(table: T) => Object.entries(table) as [SetupPart, SetupStep][];

const command = commandNamed(new SlashCommandBuilder(), 'setup')
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand(setupNamed('credentials'));
for (const [part, step] of entries(STEPS)) command.addSubcommand(subcommand(part, step));
for (const [name, table] of GROUPS)
  command.addSubcommandGroup((group) => {
    for (const [part, step] of entries(table)) group.addSubcommand(subcommand(part, step));
    return setupNamed(name)(group);
  });
export const data = command.addSubcommand(setupNamed('status')).addSubcommand(setupNamed('reset'));

/** Works in a server not set up yet: setting it up is what it is for. */
export const anyServer = true;
/** Checked on every use: a server may let others see the command. */
export const gate: Gate = 'manageServer';

// Discord sends the English subcommand name whatever the member's language.
const ANSWERS: ReadonlyMap<string, SetupStep> = new Map([
  ...entries(STEPS).map(([part, step]) => [setupName(part), step] as const),
  ...GROUPS.flatMap(([name, table]) =>
    entries(table).map(([part, step]) => [`${setupName(name)} ${setupName(part)}`, step] as const),
  ),
  [setupName('reset'), RESET],
]);

/** Every answer is ephemeral. */
export async function execute(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<void> {
  const group = interaction.options.getSubcommandGroup(false);
  const sub = group ? `${group} ${interaction.options.getSubcommand(true)}` : interaction.options.getSubcommand(true);
  if (sub === setupName('credentials')) return openCredentials(interaction, ctx);
  if (sub === setupName('status')) {
    // It asks the service and Discord: deferred first, whatever they take.
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    await interaction.editReply(await setupStatus(interaction, ctx));
    return;
  }
  const step = ANSWERS.get(sub);
  if (!step) throw new Error(`unknown /setup subcommand ${sub}`);
  await replyInTime(interaction, step.answer(interaction, ctx), { ephemeral: true });
}
