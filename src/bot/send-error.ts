import { MessageFlags, type RepliableInteraction } from 'discord.js';
import type { Logger } from '../log.js';
import { noticeView } from '../views/notice.js';
import { ServiceUnavailableError, UnauthorizedError } from '../api/index.js';
import { isInternal, toUserMessage } from './error-message.js';
import { wasDeferredAsUpdate } from './respond.js';

/**
 * Tells the user what went wrong, ephemerally, through whichever response the interaction still
 * allows: a first reply, the edit of a deferred reply, or a follow-up. Returns the outcome label.
 */
export async function sendError(interaction: RepliableInteraction, error: unknown, logger: Logger): Promise<string> {
  const message = toUserMessage(error);
  const log = { interactionId: interaction.id, referenceId: message.referenceId, err: error };
  if (isInternal(message)) logger.error(log, 'interaction failed');
  else if (needsOperator(error))
    logger.warn(
      { interactionId: interaction.id, reason: (error as Error).name, err: error },
      'service failure shown to a member',
    );
  else logger.info({ interactionId: interaction.id, reason: (error as Error).name }, 'interaction refused or failed');

  const payload = noticeView(message);
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
  return isInternal(message) ? 'error' : 'refused';
}

/** Rejected credentials and an unreachable service are the operator's to act on, not the member's. */
function needsOperator(error: unknown): boolean {
  return error instanceof UnauthorizedError || error instanceof ServiceUnavailableError;
}
