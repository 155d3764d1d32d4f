import { apiProblems } from './api-fields.js';
import { deepFreeze, ConfigError, fromDotenv, readOrThrow } from './load.js';
import {
  DATABASE_URL,
  databasePassword,
  DISCORD_FIELDS,
  keyTexts,
  listingSecretTexts,
  LOG_FIELDS,
  onTerminal,
  optionalSecretKeys,
  PROCESS_FIELDS,
  processSettings,
  type ProcessSettings,
  SECRETS_FIELDS,
  WEBHOOK_FIELDS,
  webhookSettings,
  type WebhookSettings,
} from './shared-fields.js';
import type { SecretKeys } from '../secrets/secret-box.js';
import type { DatabaseTarget } from '../store/database-url.js';

/** What a receiver-only process (ROLE=receiver, `npm run receiver`) reads: the store, the receiver, logs, health. */
export interface ReceiverConfig extends ProcessSettings {
  /** Single-server mode's server, whose deliveries also come to the plain path with WEBHOOK_TOKEN. */
  readonly guildId: string | undefined;
  readonly secrets: SecretKeys | undefined;
  readonly database: DatabaseTarget & { kind: 'postgres' };
  readonly webhook: WebhookSettings;
}

const RECEIVER_FIELDS = {
  DISCORD_GUILD_ID: DISCORD_FIELDS.DISCORD_GUILD_ID,
  ...SECRETS_FIELDS,
  DATABASE_URL,
  ...WEBHOOK_FIELDS,
  ...LOG_FIELDS,
  ...PROCESS_FIELDS,
};

/**
 * A receiver process holds nothing but its connections: it needs a store other processes share
 * (PostgreSQL; a SQLite file is one process's), a port, and what opens each server's token.
 */
export function parseReceiverConfig(env: NodeJS.ProcessEnv, terminal = onTerminal()): ReceiverConfig {
  const e = readOrThrow(RECEIVER_FIELDS, env);
  const webhook = webhookSettings(e);
  const problems: string[] = [];
  if (e.DATABASE_URL.kind !== 'postgres')
    problems.push(
      'DATABASE_URL must be a postgres:// URL for ROLE=receiver: a SQLite file serves one process, so a receiver of its own cannot share it. Use PostgreSQL, or run the receiver inside the bot (ROLE=all, the default)',
    );
  if (webhook === undefined)
    problems.push('WEBHOOK_PORT is missing: ROLE=receiver runs only the webhook receiver, on this port');
  if (e.DISCORD_GUILD_ID !== undefined && e.WEBHOOK_TOKEN === undefined)
    problems.push(
      "WEBHOOK_TOKEN is missing: DISCORD_GUILD_ID is set, so the plain path needs the Guilds server's token",
    );
  if (e.DISCORD_GUILD_ID === undefined && e.SECRETS_KEY === undefined)
    problems.push(
      'SECRETS_KEY is missing: DISCORD_GUILD_ID is empty, so each server has its own token, sealed with the key the bot uses',
    );
  problems.push(...apiProblems(e, e.DISCORD_GUILD_ID !== undefined));
  if (e.HEALTH_PORT !== undefined && (e.HEALTH_PORT === e.METRICS_PORT || e.HEALTH_PORT === e.WEBHOOK_PORT))
    problems.push('HEALTH_PORT must differ from METRICS_PORT and WEBHOOK_PORT: /healthz alone gets a port of its own');
  if (problems.length > 0 || e.DATABASE_URL.kind !== 'postgres' || webhook === undefined)
    throw new ConfigError(problems);
  return deepFreeze({
    guildId: e.DISCORD_GUILD_ID,
    secrets: optionalSecretKeys(e),
    database: e.DATABASE_URL,
    webhook,
    ...processSettings(e, terminal),
  });
}

export const loadReceiverConfig = fromDotenv(parseReceiverConfig);

/** A receiver's secrets: the webhook token, the listings' secrets, the keys and the database password. */
export function receiverSecretValues(config: ReceiverConfig): string[] {
  return [
    ...(config.webhook.token === undefined ? [] : [config.webhook.token]),
    ...keyTexts(config.secrets),
    ...listingSecretTexts(config.webhook),
    databasePassword(config.database),
  ];
}
