import type { ChatInputCommandInteraction } from 'discord.js';
import { checkTemplate } from '../announce/template.js';
import type { BaseContext } from '../runtime/context.js';
import { setupName } from '../bot/command-options.js';
import { UserFacingError } from '../bot/user-error.js';
import { translatorFor, type Translator } from '../i18n/index.js';
import type { ServerSettingsRecord } from '../store/index.js';
import type { MessageView } from '../views/message.js';
import { noticeView } from '../views/notice.js';
import type { AnnouncementTemplates } from '../views/vote-announcement.js';
import { exampleAnnouncements, templateRefusal } from './announce-preview.js';
import { setupAnswer } from './answer.js';
import { refuseEnvironmentSetting } from './manage-server.js';

/**
 * `/setup announce template:… first-vote:… ping:… every-list:… preview:… clear:…`: how votes are announced.
 * With `preview:true` nothing is stored or posted; the answer shows what announcements would say.
 */
export async function setAnnounce(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView> {
  const guildId = interaction.guildId!;
  const i18n = translatorFor(interaction.locale);
  const { options } = interaction;
  const template = checked(options.getString(setupName('template')));
  const firstVote = checked(options.getString(setupName('firstVote')));
  const ping = options.getBoolean(setupName('ping')) ?? undefined;
  const everyList = options.getBoolean(setupName('everyList')) ?? undefined;
  const preview = options.getBoolean(setupName('preview')) ?? false;
  const clear = options.getBoolean(setupName('clear')) ?? false;
  if (clear && (template !== undefined || firstVote !== undefined)) throw new UserFacingError('refusal.announceClear');

  const current = ctx.servers.settings(guildId);
  const next: AnnouncementTemplates = {
    template: clear ? undefined : (template ?? current?.announceTemplate),
    firstVote: clear ? undefined : (firstVote ?? current?.firstVoteTemplate),
    ping: ping ?? current?.announcePing ?? false,
  };
  const everyListOn = everyList ?? current?.announceEveryList ?? true;
  // A server on Guilds alone sees the line about it only when it asks: it has no other list to vote on.
  const showEveryList = everyList !== undefined || ctx.servers.listings.any(guildId);
  const shown = [
    previewText(next, interaction, i18n),
    ...(showEveryList ? [i18n.t(everyListOn ? 'setup.announce.everyListOn' : 'setup.announce.everyListOff')] : []),
  ].join('\n');
  const changes =
    template !== undefined || firstVote !== undefined || ping !== undefined || everyList !== undefined || clear;
  if (preview || !changes)
    return noticeView({ tone: 'info', title: i18n.t('setup.announce.preview.title'), description: shown, i18n });

  const patch: ServerSettingsRecord = {};
  if (template !== undefined || clear) {
    refuseEnvironmentSetting(ctx.servers, guildId, 'announceTemplate');
    patch.announceTemplate = next.template;
  }
  if (firstVote !== undefined || clear) {
    refuseEnvironmentSetting(ctx.servers, guildId, 'firstVoteTemplate');
    patch.firstVoteTemplate = next.firstVote;
  }
  if (ping !== undefined) {
    refuseEnvironmentSetting(ctx.servers, guildId, 'announcePing');
    patch.announcePing = ping;
  }
  if (everyList !== undefined) {
    refuseEnvironmentSetting(ctx.servers, guildId, 'announceEveryList');
    patch.announceEveryList = everyList;
  }
  await ctx.servers.setSettings(guildId, patch);
  return setupAnswer(clear ? 'setup.announce.cleared' : 'setup.announce.set', { preview: shown }, i18n);
}

/** The template as typed, checked; undefined when the option was left out. */
function checked(text: string | null): string | undefined {
  if (text === null) return undefined;
  const check = checkTemplate(text);
  if (check.ok) return check.template;
  const { key, vars } = templateRefusal(check);
  throw new UserFacingError(key, vars);
}

/** A vote and a first vote by the caller, as the templates word them, and who would be pinged. */
function previewText(templates: AnnouncementTemplates, interaction: ChatInputCommandInteraction, i18n: Translator) {
  const { t } = i18n;
  const name = interaction.member && 'displayName' in interaction.member ? interaction.member.displayName : undefined;
  const voter = { server: interaction.guild?.name ?? '', userId: interaction.user.id, name };
  const example = exampleAnnouncements(templates, voter, i18n);
  return [
    example.builtIn ? t('setup.announce.builtIn') : '',
    `**${t('setup.announce.voteLabel')}**`,
    example.vote,
    `**${t('setup.announce.firstLabel')}**`,
    example.first,
    '',
    t(example.pings ? 'setup.announce.pingsVoter' : 'setup.announce.pingsNobody'),
  ]
    .filter((part, index) => index > 0 || part !== '')
    .join('\n');
}
