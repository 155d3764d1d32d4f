import type { Guild } from 'discord.js';
import type { BaseContext } from '../runtime/context.js';
import { discordPoster, textBody } from '../bot/poster.js';
import { tellAuditChannel } from '../bot/tell-audit-channel.js';
import { mentionWithName } from '../core/discord-text.js';
import { translatorFor, type NoticeKey, type Translator, type Vars } from '../i18n/index.js';
import type { MessageView } from '../views/message.js';
import type { Tone } from '../views/theme.js';
import { setupAnswer } from './answer.js';
import type { Actor } from '../bot/actor.js';

/** The server a change is made in, and discord.js's cached view of it (null when the gateway has none). */
export interface ChangeTarget {
  readonly guildId: string;
  readonly guild: Guild | null;
}

/** What a change did, in no language yet: /setup renders it for the member, the audit line for the server. */
export interface ChangeResult {
  readonly key: NoticeKey;
  readonly vars: (i18n: Translator) => Vars;
  /** 'info' when nothing changed (it was already so): nothing to audit. */
  readonly tone: Tone;
}

/** One change of a server's setup, the same from /setup and the dashboard. */
export type ApplyChange<Input> = (
  ctx: BaseContext,
  target: ChangeTarget,
  input: Input,
  actor: Actor,
) => Promise<ChangeResult>;

export const changeResult = (
  key: NoticeKey,
  vars: (i18n: Translator) => Vars = () => ({}),
  tone: Tone = 'success',
) => ({
  key,
  vars,
  tone,
});

/** The /setup answer for a change: the same notice the command has always shown. */
export const changeAnswer = ({ key, vars, tone }: ChangeResult, i18n: Translator): MessageView =>
  setupAnswer(key, vars(i18n), i18n, tone);

/** The audit channel's line for a change, in the server's language. */
function changeAuditLine({ key, vars }: ChangeResult, actor: Actor, i18n: Translator): string {
  const change = `**${i18n.t(`${key}.title`)}**: ${i18n.t(`${key}.text`, vars(i18n))}`;
  return i18n.t('audit.dashboard.changed', { name: mentionWithName(actor.userId, actor.name), change });
}

/**
 * The one place that decides what a made change is audited: the dashboard's changes are told to the
 * audit channel ("changed on the dashboard by …"); /setup's stay as they always were (the member
 * sees the answer, nothing more). A failed audit post is logged and never undoes the change.
 */
export async function changed(
  ctx: BaseContext,
  { guildId, guild }: ChangeTarget,
  actor: Actor,
  result: ChangeResult,
  /** The audit channel as it was before the change, for a change that forgets it (reset). */
  auditChannelId = ctx.servers.settings(guildId)?.auditChannelId,
): Promise<ChangeResult> {
  if (actor.via !== 'dashboard' || result.tone === 'info') return result;
  ctx.logger.info({ guildId, userId: actor.userId, change: result.key }, 'setting changed on the dashboard');
  if (!guild) return result;
  const line = changeAuditLine(result, actor, translatorFor(guild.preferredLocale));
  await tellAuditChannel(discordPoster(guild.client.rest), {
    channelId: auditChannelId,
    body: textBody(line),
    logger: ctx.logger,
    failedLine: 'could not post the dashboard change to the audit channel',
    context: { guildId, change: result.key },
  });
  return result;
}

/** Where a /setup command changes things. */
export const commandTarget = (interaction: { guildId: string | null; guild: Guild | null }): ChangeTarget => ({
  guildId: interaction.guildId!,
  guild: interaction.guild,
});
