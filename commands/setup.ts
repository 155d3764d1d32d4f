import {
  SlashCommandBuilder,
  InteractionContextType,
  MessageFlags,
  PermissionFlagsBits,
  type ChatInputCommandInteraction,
} from 'discord.js';
import type { BaseContext } from '../src/runtime/context.js';
import { commandNamed, setupName, setupNamed } from '../src/bot/command-options.js';
import type { Gate } from '../src/bot/permissions.js';
import { replyInTime } from '../src/bot/respond.js';
import { BUTTON_URL_MAX } from '../src/core/discord-limits.js';
import { english, localizations, translatorFor } from '../src/i18n/index.js';
import { LIST_SITES } from '../src/lists/index.js';
import { openCredentials } from '../src/setup/credentials.js';
import { CHANNEL_KINDS, POSTABLE_CHANNELS, setChannel, type ChannelKind } from '../src/setup/channel.js';
import { resetConfirmView } from '../src/setup/reset.js';
import { MILESTONE_PERIODS, MILESTONE_VOTES_MAX, setMilestone } from '../src/setup/milestone.js';
import { TEMPLATE_MAX } from '../src/announce/template.js';
import { setAnnounce } from '../src/setup/announce.js';
import { setRole } from '../src/setup/role.js';
import { setStreak } from '../src/setup/streak.js';
import { STREAK_GRACE_HOURS_MAX } from '../src/streaks/streak.js';
import { LISTING_VOTE_HOURS_MAX } from '../src/lists/index.js';
import { addListing, listListings, removeListing } from '../src/setup/listing.js';
import { setupStatus } from '../src/setup/status.js';
import { setVoteUrl } from '../src/setup/vote-url.js';
import { showWebhook } from '../src/setup/webhook.js';
import type { MessageView } from '../src/views/message.js';

const kinds = (Object.keys(CHANNEL_KINDS) as ChannelKind[]).map((kind) => ({
  name: english.t(`setup.kind.${kind}`),
  name_localizations: localizations(`setup.kind.${kind}`),
  value: kind,
}));

// The lists besides Guilds, named as the sites name themselves in every language.
const sites = Object.values(LIST_SITES).map((site) => ({ name: site.name, value: site.id }));

export const data = commandNamed(new SlashCommandBuilder(), 'setup')
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand(setupNamed('credentials'))
  .addSubcommand((sub) =>
    setupNamed('channel')(sub)
      .addStringOption((o) =>
        setupNamed('kind')(o)
          .setRequired(true)
          .addChoices(...kinds),
      )
      .addChannelOption((o) => setupNamed('target')(o).addChannelTypes(...POSTABLE_CHANNELS)),
  )
  .addSubcommand((sub) =>
    setupNamed('role')(sub)
      .addRoleOption(setupNamed('voter'))
      .addRoleOption(setupNamed('moderators'))
      .addRoleOption(setupNamed('remove')),
  )
  .addSubcommand((sub) =>
    setupNamed('voteUrl')(sub).addStringOption((o) =>
      setupNamed('url')(o).setRequired(true).setMaxLength(BUTTON_URL_MAX),
    ),
  )
  .addSubcommand((sub) =>
    setupNamed('announce')(sub)
      .addStringOption((o) => setupNamed('template')(o).setMaxLength(TEMPLATE_MAX))
      .addStringOption((o) => setupNamed('firstVote')(o).setMaxLength(TEMPLATE_MAX))
      .addBooleanOption(setupNamed('ping'))
      .addBooleanOption(setupNamed('everyList'))
      .addBooleanOption(setupNamed('preview'))
      .addBooleanOption(setupNamed('clear')),
  )
  .addSubcommand((sub) =>
    setupNamed('streak')(sub).addIntegerOption((o) =>
      setupNamed('graceHours')(o).setRequired(true).setMinValue(0).setMaxValue(STREAK_GRACE_HOURS_MAX),
    ),
  )
  .addSubcommand((sub) => setupNamed('webhook')(sub).addBooleanOption(setupNamed('rotate')))
  .addSubcommand((sub) =>
    setupNamed('milestone')(sub)
      .addRoleOption(setupNamed('milestoneRole'))
      .addIntegerOption((o) => setupNamed('votes')(o).setMinValue(1).setMaxValue(MILESTONE_VOTES_MAX))
      .addStringOption((o) =>
        setupNamed('period')(o).addChoices(
          ...MILESTONE_PERIODS.map((period) => ({
            name: english.t(`setup.period.${period}`),
            name_localizations: localizations(`setup.period.${period}`),
            value: period,
          })),
        ),
      )
      .addRoleOption(setupNamed('milestoneRemove')),
  )
  .addSubcommandGroup((group) =>
    setupNamed('listing')(group)
      .addSubcommand((sub) =>
        setupNamed('listingAdd')(sub)
          .addStringOption((o) =>
            setupNamed('site')(o)
              .setRequired(true)
              .addChoices(...sites),
          )
          .addBooleanOption(setupNamed('rotate'))
          .addIntegerOption((o) => setupNamed('voteHours')(o).setMinValue(1).setMaxValue(LISTING_VOTE_HOURS_MAX)),
      )
      .addSubcommand((sub) =>
        setupNamed('listingRemove')(sub).addStringOption((o) =>
          setupNamed('site')(o)
            .setRequired(true)
            .addChoices(...sites),
        ),
      )
      .addSubcommand(setupNamed('listingList')),
  )
  .addSubcommand(setupNamed('status'))
  .addSubcommand(setupNamed('reset'));

/** Works in a server not set up yet: setting it up is what it is for. */
export const anyServer = true;
/** Checked on every use: a server may let others see the command. */
export const gate: Gate = 'manageServer';

type Step = (interaction: ChatInputCommandInteraction, ctx: BaseContext) => Promise<MessageView>;

// Discord sends the English subcommand name whatever the member's language.
const STEPS: ReadonlyMap<string, Step> = new Map<string, Step>([
  [setupName('channel'), setChannel],
  [setupName('role'), setRole],
  [setupName('voteUrl'), setVoteUrl],
  [setupName('announce'), setAnnounce],
  [setupName('streak'), setStreak],
  [setupName('webhook'), showWebhook],
  [setupName('milestone'), setMilestone],
  [`${setupName('listing')} ${setupName('listingAdd')}`, addListing],
  [`${setupName('listing')} ${setupName('listingRemove')}`, removeListing],
  [`${setupName('listing')} ${setupName('listingList')}`, listListings],
  [setupName('reset'), async (interaction) => resetConfirmView(translatorFor(interaction.locale))],
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
  const step = STEPS.get(sub);
  if (!step) throw new Error(`unknown /setup subcommand ${sub}`);
  await replyInTime(interaction, step(interaction, ctx), { ephemeral: true });
}
