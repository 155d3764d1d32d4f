import { ButtonStyle } from 'discord-api-types/v10';
import { ActionRowBuilder, ButtonBuilder } from '../views/components.js';
import { EmbedBuilder } from '../views/embed-builder.js';
import type { BaseContext } from '../runtime/context.js';
import { encodeCustomId, Prefix } from '../core/custom-id.js';
import type { Translator } from '../i18n/index.js';
import { messageView, type MessageView } from '../views/message.js';
import { ToneColour } from '../views/theme.js';
import { changed, changeResult, type ChangeResult, type ChangeTarget } from './change.js';
import type { Actor } from '../bot/actor.js';

/** The custom id's argument of the one button: a versioned constant, so an old or forged id is refused. */
export const RESET_CONFIRM = 'confirm';

/** `/setup reset`: nothing is forgotten until the button is pressed. */
export function resetConfirmView({ t }: Translator): MessageView {
  const embed = new EmbedBuilder()
    .setColor(ToneColour.warning)
    .setTitle(t('setup.reset.confirm.title'))
    .setDescription(t('setup.reset.confirm.text'));
  const button = new ButtonBuilder()
    .setCustomId(encodeCustomId(Prefix.setupReset, RESET_CONFIRM))
    .setStyle(ButtonStyle.Danger)
    .setLabel(t('setup.reset.button'));
  return messageView(embed, [new ActionRowBuilder<ButtonBuilder>().addComponents(button)]);
}

/** Forgets the server: settings, secrets and rows go; its work stops (the runtimes follow the change). */
export async function applyReset(ctx: BaseContext, target: ChangeTarget, actor: Actor): Promise<ChangeResult> {
  const { guildId } = target;
  // Read first: the reset forgets the audit channel with everything else.
  const auditChannelId = ctx.servers.settings(guildId)?.auditChannelId;
  await ctx.setup.changes.reset(guildId);
  ctx.setup.forgetClient(guildId);
  ctx.logger.info({ guildId, userId: actor.userId }, 'server forgotten with /setup reset');
  const result = changeResult('setup.reset.done', () => ({ command: '`/setup credentials`' }));
  return changed(ctx, target, actor, result, auditChannelId);
}
