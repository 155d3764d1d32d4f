// The settings more than one process reads, each defined here once: a process's table spreads the
// groups it takes, in the order its problems are reported. Values of secret variables are never
// echoed back.
import { isListingSecret } from '../core/listing-secret.js';
import { isIP } from 'node:net';
import {
  checked,
  field,
  from,
  httpUrl,
  intInRange,
  matching,
  wholeNumber,
  oneOf,
  optional,
  orDefault,
  port,
  required,
  trimmed,
  validatedBy,
  type Values,
} from './fields.js';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../core/log.js';
import { SNOWFLAKE } from '../api/index.js';
import { secretKey, type SecretKeys } from '../secrets/secret-box.js';
import { DEFAULT_DATABASE_URL, parseDatabaseUrl, type DatabaseTarget } from '../store/database-url.js';
import { DEFAULT_MAX_CONNECTIONS } from './webhook-limits.js';
import { API_FIELDS, apiSettings, type ApiSettings } from './api-fields.js';
import {
  HOUR_MS,
  LIST_SITE_IDS,
  LIST_SITES,
  listingSecretVariable,
  listingVoteHoursVariable,
  type AdaptedSiteId,
} from '../lists/index.js';

export const snowflake = (hint: string) => matching(SNOWFLAKE, `must be a Discord id (17–20 digits): ${hint}`);
/** A key as written (checked here so the message names the setting; never echoed). */
export const secretKeyText = (name: string) =>
  validatedBy(
    (value) => secretKey(value, name),
    (message) => message.replace(`${name} `, ''),
  );
const databaseUrl = from(parseDatabaseUrl);
const APPLICATION_ID = 'the application id (Developer Portal → General Information → Application ID)';

/** The bot, and the deploy script that registers its commands. */
export const DISCORD_FIELDS = {
  DISCORD_TOKEN: required(trimmed, "your bot's token (Developer Portal → your application → Bot → Reset Token)"),
  DISCORD_CLIENT_ID: required(snowflake(APPLICATION_ID), APPLICATION_ID),
  DISCORD_GUILD_ID: optional(
    snowflake(
      'the id of the one server the bot serves (right-click the server → Copy Server ID), or leave empty to serve every server it is invited to',
    ),
  ),
  DISCORD_API_URL: optional(httpUrl('a Discord REST base such as a REST proxy, without /v10; leave empty for Discord')),
};

export const SECRETS_FIELDS = {
  SECRETS_KEY: optional(secretKeyText('SECRETS_KEY')),
  SECRETS_KEY_PREVIOUS: optional(secretKeyText('SECRETS_KEY_PREVIOUS')),
};

export const LOG_FIELDS = {
  LOG_LEVEL: orDefault(oneOf(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`), 'info'),
  LOG_FORMAT: optional(
    oneOf(LOG_FORMATS, 'must be json (one object per line, for a log collector) or pretty (for a person reading)'),
  ),
};

/** An address to listen on, 127.0.0.1 unless set; `choices` say which to pick. */
export const listenHost = (choices: string) =>
  orDefault(
    checked((value) =>
      isIP(value) !== 0 || value === 'localhost' ? undefined : `must be an IP address to listen on: ${choices}`,
    ),
    '127.0.0.1',
  );

/** What a long-running process listens on besides its work, and how long it takes to stop. */
export const PROCESS_FIELDS = {
  METRICS_PORT: optional(port),
  METRICS_HOST: listenHost(
    '127.0.0.1 (this machine only, the default), or 0.0.0.0 / :: (every interface, e.g. for Prometheus in another container)',
  ),
  HEALTH_PORT: optional(port),
  SHUTDOWN_GRACE_MS: intInRange(0, 60_000, 4_000),
};

// The default is parsed per read, not shared: deepFreeze freezes what each config holds.
export const DATABASE_URL = field(databaseUrl, () => databaseUrl(DEFAULT_DATABASE_URL));

/** A list's secret: long enough that it cannot be guessed, with no spaces (it may go in an address). */
function listingSecret(what: string) {
  return optional(
    checked((value) =>
      isListingSecret(value)
        ? undefined
        : `must be 16 to 256 characters with no spaces: ${what} (make one with: openssl rand -hex 24)`,
    ),
  );
}

/** A list's vote length where the site does not send it (docs/lists.md); unset: the site's default. */
const listingVoteHours = (site: string, fallback: number) => {
  const words = `must be a whole number of hours from 1 to 168: how long a vote on ${site} runs (empty: ${fallback})`;
  return optional(wholeNumber(1, 168, { notWhole: words, under: words, over: words }));
};

type SecretVariable = ReturnType<typeof listingSecretVariable<AdaptedSiteId>>;
type VoteHoursVariable = ReturnType<typeof listingVoteHoursVariable<AdaptedSiteId>>;

/**
 * One server's listings on the lists besides Guilds (docs/lists.md), made from the site list: each
 * list's secret, then the vote length of each list whose votes do not say how long they run.
 */
const LISTING_FIELDS = Object.fromEntries([
  ...LIST_SITE_IDS.map((id) => [listingSecretVariable(id), listingSecret(LIST_SITES[id].secretHint)]),
  ...LIST_SITE_IDS.flatMap((id) => {
    const { name, voteLength } = LIST_SITES[id];
    return voteLength === 'payload'
      ? []
      : [[listingVoteHoursVariable(id), listingVoteHours(name, voteLength / HOUR_MS)]];
  }),
]) as Record<SecretVariable, ReturnType<typeof listingSecret>> &
  Record<VoteHoursVariable, ReturnType<typeof listingVoteHours>>;

/** The names of those settings, in that order. */
export const LISTING_SETTINGS = Object.keys(LISTING_FIELDS) as (keyof typeof LISTING_FIELDS)[];

/** Guilds' webhook receiver, inside the bot (ROLE=all) or a process of its own (ROLE=receiver). */
export const WEBHOOK_FIELDS = {
  WEBHOOK_PORT: optional(port),
  WEBHOOK_HOST: optional(trimmed),
  WEBHOOK_PATH: orDefault(matching(/^\/[\w\-./~]*$/, 'must be a path starting with / such as /webhook'), '/webhook'),
  WEBHOOK_TOKEN: optional(
    checked((value) =>
      value.length >= 16
        ? undefined
        : "must be at least 16 characters: the token set on the Guilds server's webhook page",
    ),
  ),
  WEBHOOK_MAX_CONNECTIONS: intInRange(1, 100_000, DEFAULT_MAX_CONNECTIONS),
  ...LISTING_FIELDS,
  WEBHOOK_PUBLIC_URL: optional(
    httpUrl('the address Guilds reaches the receiver at, e.g. https://bot.example.com (the path is added)'),
  ),
  ...API_FIELDS,
};

/** Discord's REST base without the version (discord.js's RouteBases.api has /v10 already): where DISCORD_API_URL is unset. */
export const DISCORD_API = 'https://discord.com/api';

export interface DiscordSettings {
  readonly token: string;
  readonly clientId: string;
  /**
   * Single-server mode: the one server the bot serves, set up from this environment, and where the
   * commands are registered. Unset: every server it is in, with the commands registered globally.
   */
  readonly guildId: string | undefined;
  /** REST base without /v10; undefined means Discord's own. */
  readonly apiUrl: string | undefined;
}

export function discordSettings(e: Values<typeof DISCORD_FIELDS>): DiscordSettings {
  return {
    token: e.DISCORD_TOKEN,
    clientId: e.DISCORD_CLIENT_ID,
    guildId: e.DISCORD_GUILD_ID,
    apiUrl: e.DISCORD_API_URL,
  };
}

export interface LogSettings {
  readonly logLevel: LogLevel;
  /** pretty: coloured lines for a person at a terminal; json: one object per line for a log collector. */
  readonly logFormat: LogFormat;
}

/** Whether a person is watching: the default of a parser's `terminal`, read when it is called. */
export const onTerminal = () => process.stdout.isTTY === true;

export function logSettings(e: Values<typeof LOG_FIELDS>, terminal: boolean): LogSettings {
  return {
    logLevel: e.LOG_LEVEL,
    // A person is watching a terminal; anything else (a pipe, a collector, a test) reads JSON.
    logFormat: e.LOG_FORMAT ?? (terminal ? 'pretty' : 'json'),
  };
}

export interface ProcessSettings extends LogSettings {
  readonly metricsPort: number | undefined;
  /** The address /healthz and /metrics listen on. */
  readonly metricsHost: string;
  /** /healthz alone on 127.0.0.1, for a container's health check; the image sets it. */
  readonly healthPort: number | undefined;
  readonly shutdownGraceMs: number;
}

export function processSettings(
  e: Values<typeof LOG_FIELDS> & Values<typeof PROCESS_FIELDS>,
  terminal: boolean,
): ProcessSettings {
  return {
    ...logSettings(e, terminal),
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    healthPort: e.HEALTH_PORT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
  };
}

export interface WebhookSettings {
  readonly port: number;
  readonly host: string | undefined;
  readonly path: string;
  /** Single-server mode's token for the plain path; every server's own token is set with /setup webhook. */
  readonly token: string | undefined;
  /** The address Guilds reaches the receiver at (behind the proxy), shown by /setup webhook. */
  readonly publicUrl: string | undefined;
  /** Concurrent connections kept; past it new ones are closed at once. */
  readonly maxConnections: number;
  /** Single-server mode's listings (LISTING_<SITE>_SECRET), by site id; many servers add theirs with /setup listing. */
  readonly listingSecrets?: ListingSecrets;
  /** Single-server mode's LISTING_<SITE>_VOTE_HOURS, by site id (only lists whose votes do not say). */
  readonly listingVoteHours?: ListingVoteHours;
  /** The vote API on the receiver's port; undefined (off) unless API_ENABLED=true. */
  readonly api?: ApiSettings;
}

/** LISTING_<SITE>_VOTE_HOURS by site id (only the lists whose votes do not say). */
type ListingVoteHours = Readonly<Partial<Record<AdaptedSiteId, number>>>;

/** LISTING_<SITE>_SECRET by site id. */
type ListingSecrets = Readonly<Partial<Record<AdaptedSiteId, string>>>;

/** The LISTING_<SITE>_… settings set, by site id. */
function bySite<T>(value: (site: AdaptedSiteId) => T | undefined): Partial<Record<AdaptedSiteId, T>> {
  return Object.fromEntries(
    LIST_SITE_IDS.map((site) => [site, value(site)]).filter(([, set]) => set !== undefined),
  ) as Partial<Record<AdaptedSiteId, T>>;
}

/** The listings' secrets and the API's keys, for the values a log line must never show. */
export const listingSecretTexts = (webhook: WebhookSettings | undefined): string[] => [
  ...Object.values(webhook?.listingSecrets ?? {}).filter((secret): secret is string => secret !== undefined),
  ...(webhook?.api?.keys ?? []),
];

/** The receiver's settings; undefined (off) unless WEBHOOK_PORT is set. */
export function webhookSettings(e: Values<typeof WEBHOOK_FIELDS>): WebhookSettings | undefined {
  return e.WEBHOOK_PORT === undefined
    ? undefined
    : {
        port: e.WEBHOOK_PORT,
        host: e.WEBHOOK_HOST,
        path: e.WEBHOOK_PATH,
        token: e.WEBHOOK_TOKEN,
        publicUrl: e.WEBHOOK_PUBLIC_URL,
        maxConnections: e.WEBHOOK_MAX_CONNECTIONS,
        listingSecrets: bySite((site) => e[listingSecretVariable(site)]),
        listingVoteHours: bySite((site) => e[listingVoteHoursVariable(site)]),
        ...apiSettings(e),
      };
}

export function secretKeys(current: string, previous: string | undefined): SecretKeys {
  return {
    current: secretKey(current, 'SECRETS_KEY'),
    ...(previous === undefined ? {} : { previous: secretKey(previous, 'SECRETS_KEY_PREVIOUS') }),
  };
}

/** SECRETS_KEY (and SECRETS_KEY_PREVIOUS while rotating), or undefined when no key is set. */
export function optionalSecretKeys(e: Values<typeof SECRETS_FIELDS>): SecretKeys | undefined {
  return e.SECRETS_KEY === undefined ? undefined : secretKeys(e.SECRETS_KEY, e.SECRETS_KEY_PREVIOUS);
}

/** The keys as they are written, for the values a log line must never show. */
export function keyTexts(secrets: SecretKeys | undefined): string[] {
  return [secrets?.current, secrets?.previous].flatMap((k) => (k ? [k.key.toString('base64')] : []));
}

export function databasePassword(database: DatabaseTarget & { kind: 'postgres' }): string {
  return decodeURIComponent(new URL(database.url).password);
}
