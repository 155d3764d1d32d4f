import { MessageFlags, type RepliableInteraction } from 'discord.js';
import type { Logger } from '../core/log.js';
import { translatorFor } from '../i18n/index.js';
import { noticeView } from '../views/notice.js';
import type { ErrorOutcome } from './error-outcome.js';
import { wasDeferredAsUpdate } from './respond.js';

const LOG_LINE: Record<ErrorOutcome['logLevel'], string> = {
  error: 'interaction failed',
  warn: 'service failure shown to a member',
  info: 'interaction refused or failed',
};

/**
 * Logs a failure at its level and tells the user, ephemerally, through whichever response the
 * interaction still allows: a first reply, the edit of a deferred reply, or a follow-up.
 */
export async function sendError(
  interaction: RepliableInteraction,
  error: unknown,
  { message, logLevel, reason }: ErrorOutcome,
  logger: Logger,
): Promise<void> {
  const fields = { interactionId: interaction.id, reason, referenceId: message.referenceId };
  if (logLevel === 'info') logger.info(fields, LOG_LINE.info);
  else logger[logLevel]({ ...fields, err: error }, LOG_LINE[logLevel]);

  const payload = noticeView({ ...message, i18n: translatorFor(interaction.locale) });
  try {
    if (interaction.deferred && !interaction.replied && !wasDeferredAsUpdate(interaction)) {
      await interaction.editReply(payload);
    } else if (interaction.deferred || interaction.replied) {
      await interaction.followUp({ ...payload, flags: MessageFlags.Ephemeral });
    } else {
      await interaction.reply({ ...payload, flags: MessageFlags.Ephemeral });
    }
  } catch (sendFailure) {
    logger.warn({ interactionId: interaction.id, err: sendFailure }, 'could not tell the user about a failure');
  }
}
