import type { ChatInputCommandInteraction, ModalSubmitInteraction } from 'discord.js';
import { MessageFlags } from 'discord-api-types/v10';
import { createServiceClient } from '../api/index.js';
import type { BaseContext } from '../runtime/context.js';
import { UserFacingError } from '../bot/user-error.js';
import { translatorFor } from '../i18n/index.js';
import { lastFour } from '../secrets/secret-box.js';
import type { Credentials } from '../servers/servers.js';
import { credentialsModal, CredentialsField, readCredentials } from '../views/credentials-modal.js';
import { changeAnswer, changed, changeResult, commandTarget, type ApplyChange } from './change.js';
import { sealing } from './manage-server.js';
import { commandActor } from '../bot/actor.js';

/** The settings that hold one server's credentials when it is set up from .env. */
const ENVIRONMENT_CREDENTIALS = 'SERVICE_API_KEY, SERVICE_APP_ID';

/** `/setup credentials`: the form, unless the environment holds this server's credentials. */
export async function openCredentials(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<void> {
  refuseEnvironmentCredentials(interaction.guildId!, ctx);
  if (!ctx.config.secrets) throw new UserFacingError('refusal.secretsKeyMissing');
  await interaction.showModal(credentialsModal(translatorFor(interaction.locale)));
}

/** The credentials as typed: checked here (trimmed, not empty) whoever sends them. */
export interface CredentialsInput {
  apiKey: unknown;
  appId: unknown;
}

/**
 * The form sent back: checked against the service with one GET /votes before anything is saved,
 * so a typo is refused at once and the old credentials stay in use.
 */
export async function saveCredentials(interaction: ModalSubmitInteraction, ctx: BaseContext): Promise<void> {
  const input = readFields(interaction);
  // Refused before the deferral, at once, as the answer to the form.
  credentialsFrom(ctx, interaction.guildId!, input);
  // The check may take longer than Discord's 3 s.
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const result = await applyCredentials(ctx, commandTarget(interaction), input, commandActor(interaction));
  await interaction.editReply(changeAnswer(result, translatorFor(interaction.locale)));
}

export const applyCredentials: ApplyChange<CredentialsInput> = async (ctx, target, input, actor) => {
  const { guildId } = target;
  const credentials = credentialsFrom(ctx, guildId, input);
  await checkWithService(credentials, ctx);
  await sealing(() => ctx.setup.changes.setCredentials(guildId, credentials));
  ctx.setup.forgetClient(guildId);
  ctx.logger.info({ guildId, userId: actor.userId }, 'service credentials set with /setup');
  const vars = () => ({
    apiKey: lastFour(credentials.apiKey),
    appId: lastFour(credentials.appId),
    channel: '`/setup channel`',
  });
  return changed(ctx, target, actor, changeResult('setup.credentials.saved', vars));
};

/** What the dashboard shows of the server's service credentials: their ends, the environment's name, or none yet. */
export type CredentialsShown = { apiKey: string; appId: string } | { environment: string } | { none: true };

export function credentialsShown(ctx: BaseContext, guildId: string): CredentialsShown {
  const env = ctx.servers.environment;
  if (env?.guildId === guildId && env.credentials) return { environment: ENVIRONMENT_CREDENTIALS };
  const sealed = ctx.servers.record(guildId)?.sealed;
  if (!sealed?.apiKey || !sealed.appId) return { none: true };
  const { apiKey, appId } = ctx.servers.credentials(guildId);
  return { apiKey: lastFour(apiKey), appId: lastFour(appId) };
}

function credentialsFrom(ctx: BaseContext, guildId: string, input: CredentialsInput): Credentials {
  refuseEnvironmentCredentials(guildId, ctx);
  const credentials = readCredentials(input);
  if (!credentials) throw new UserFacingError('refusal.credentialsEmpty');
  return credentials;
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
    throw new UserFacingError('refusal.setByEnvironment', { variable: ENVIRONMENT_CREDENTIALS });
}

/** A forged submit may leave a field out: read as missing, refused like an empty one. */
function readFields(interaction: ModalSubmitInteraction): CredentialsInput {
  const read = (id: string): unknown => {
    try {
      return interaction.fields.getTextInputValue(id);
    } catch {
      return undefined;
    }
  };
  return { apiKey: read(CredentialsField.apiKey), appId: read(CredentialsField.appId) };
}
