import { MessageFlags, type ChatInputCommandInteraction, type ModalSubmitInteraction } from 'discord.js';
import { createServiceClient } from '../api/index.js';
import type { BaseContext } from '../runtime/context.js';
import { UserFacingError } from '../bot/user-error.js';
import { translatorFor } from '../i18n/index.js';
import { lastFour } from '../secrets/secret-box.js';
import type { Credentials } from '../servers/servers.js';
import { credentialsModal, CredentialsField, readCredentials } from '../views/credentials-modal.js';
import { noticeView } from '../views/notice.js';
import { sealing } from './manage-server.js';

/** `/setup credentials`: the form, unless the environment holds this server's credentials. */
export async function openCredentials(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<void> {
  refuseEnvironmentCredentials(interaction.guildId!, ctx);
  if (!ctx.config.secrets) throw new UserFacingError('refusal.secretsKeyMissing');
  await interaction.showModal(credentialsModal(translatorFor(interaction.locale)));
}

/**
 * The form sent back: checked against the service with one GET /votes before anything is saved,
 * so a typo is refused at once and the old credentials stay in use.
 */
export async function saveCredentials(interaction: ModalSubmitInteraction, ctx: BaseContext): Promise<void> {
  const guildId = interaction.guildId!;
  refuseEnvironmentCredentials(guildId, ctx);
  const credentials = readCredentials(readFields(interaction));
  if (!credentials) throw new UserFacingError('refusal.credentialsEmpty');
  // The check may take longer than Discord's 3 s.
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  await checkWithService(credentials, ctx);
  await sealing(() => ctx.servers.setCredentials(guildId, credentials));
  ctx.setup.forgetClient(guildId);
  ctx.logger.info({ guildId, userId: interaction.user.id }, 'service credentials set with /setup');
  const { t } = translatorFor(interaction.locale);
  await interaction.editReply(
    noticeView({
      tone: 'success',
      title: t('setup.credentials.saved.title'),
      description: t('setup.credentials.saved.text', {
        apiKey: lastFour(credentials.apiKey),
        appId: lastFour(credentials.appId),
        channel: '`/setup channel`',
      }),
      i18n: translatorFor(interaction.locale),
    }),
  );
}

/**
 * A client of their own, made for this one call: no retries, and nothing shared with the server's
 * client (its cache, limiter and breaker keep serving the credentials in use).
 */
async function checkWithService(credentials: Credentials, ctx: BaseContext): Promise<void> {
  const { apiKey: _apiKey, appId: _appId, ...shared } = ctx.config.service;
  const check = await createServiceClient({ ...shared, ...credentials }).checkConnection();
  if (check.outcome === 'ok') return;
  if (check.outcome === 'credentials_refused')
    throw new UserFacingError('refusal.credentialsRefused', { status: check.status });
  throw new UserFacingError('refusal.credentialsUnchecked');
}

function refuseEnvironmentCredentials(guildId: string, ctx: BaseContext): void {
  const env = ctx.servers.environment;
  if (env?.guildId === guildId && env.credentials)
    throw new UserFacingError('refusal.setByEnvironment', { variable: 'SERVICE_API_KEY, SERVICE_APP_ID' });
}

/** A forged submit may leave a field out: read as missing, refused like an empty one. */
function readFields(interaction: ModalSubmitInteraction): { apiKey: unknown; appId: unknown } {
  const read = (id: string): unknown => {
    try {
      return interaction.fields.getTextInputValue(id);
    } catch {
      return undefined;
    }
  };
  return { apiKey: read(CredentialsField.apiKey), appId: read(CredentialsField.appId) };
}
