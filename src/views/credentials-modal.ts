import { TextInputStyle } from 'discord-api-types/v10';
import { LabelBuilder, ModalBuilder, TextInputBuilder } from './components.js';
import { encodeCustomId, Prefix } from '../core/custom-id.js';
import type { Translator } from '../i18n/index.js';

/** The form's fields, read inside the one submit: the issue names them `api_key` and `app_id`. */
export const CredentialsField = { apiKey: 'api_key', appId: 'app_id' } as const;

/** Longest key or app id accepted: far above any real one, low enough to refuse junk. */
const CREDENTIAL_MAX_LENGTH = 200;

const input = (customId: string) =>
  new TextInputBuilder()
    .setCustomId(customId)
    .setStyle(TextInputStyle.Short)
    .setRequired(true)
    .setMinLength(1)
    .setMaxLength(CREDENTIAL_MAX_LENGTH);

/** `/setup credentials`: the server's API key and app id, never pre-filled (the old ones stay unseen). */
export function credentialsModal({ t }: Translator): ModalBuilder {
  return new ModalBuilder()
    .setCustomId(encodeCustomId(Prefix.setupCredentials, 'v1'))
    .setTitle(t('setup.credentials.modalTitle'))
    .addLabelComponents(
      new LabelBuilder().setLabel(t('setup.credentials.apiKey')).setTextInputComponent(input(CredentialsField.apiKey)),
      new LabelBuilder().setLabel(t('setup.credentials.appId')).setTextInputComponent(input(CredentialsField.appId)),
    );
}

/** The values as typed, trimmed; null when one is missing, empty, too long or holds spaces. */
export function readCredentials(values: { apiKey: unknown; appId: unknown }): { apiKey: string; appId: string } | null {
  const apiKey = clean(values.apiKey);
  const appId = clean(values.appId);
  return apiKey && appId ? { apiKey, appId } : null;
}

function clean(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= CREDENTIAL_MAX_LENGTH && !/\s/.test(trimmed) ? trimmed : null;
}
