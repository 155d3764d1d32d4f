import { MessageFlags, type Interaction } from 'discord.js';
import type { Logger } from '../core/log.js';
import { translatorFor } from '../i18n/index.js';

/** An interaction that arrives while the process drains: told to try again in a moment. */
export async function refuseWhileStopping(interaction: Interaction, logger: Logger): Promise<void> {
  if (!interaction.isRepliable()) return;
  try {
    await interaction.reply({
      content: translatorFor(interaction.locale).t('bot.restarting'),
      flags: MessageFlags.Ephemeral,
    });
  } catch (err) {
    logger.warn({ err, interactionId: interaction.id }, 'could not refuse an interaction during shutdown');
  }
}
