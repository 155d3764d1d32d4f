// The bot's settings (ROLE=all or bot), which the doctor reads too: one parse, so the two never disagree.
import { readFields, type Values } from './fields.js';
import { apiProblems } from './api-fields.js';
import { deepFreeze, ConfigError, fromDotenv, readOrThrow } from './load.js';
import { BOT_FIELDS, type Role } from './bot-fields.js';
import {
  databasePassword,
  discordSettings,
  type DiscordSettings,
  keyTexts,
  LISTING_SETTINGS,
  listingSecretTexts,
  onTerminal,
  optionalSecretKeys,
  processSettings,
  type ProcessSettings,
  webhookSettings,
  type WebhookSettings,
} from './shared-fields.js';
import { defaultHeaderPrefix } from '../api/index.js';
import type { SecretKeys } from '../secrets/secret-box.js';
import { dashboardProblems, dashboardSecretTexts, dashboardSettings, type DashboardSettings } from './dashboard.js';
import type { DatabaseTarget } from '../store/database-url.js';
import type { ServerSettingsRecord } from '../store/index.js';
import { SETTING_VARIABLES } from './server-variables.js';
import { topggSettings, type TopggSettings } from './topgg-fields.js';
import { forwardProblems, forwardSettings, type ForwardSettings } from './forward.js';

/** Everything the bot reads from the environment, parsed once. */
export interface Config extends ProcessSettings {
  readonly discord: DiscordSettings & {
    readonly restRequestsPerSecond: number;
    /**
     * The bot's shards in all (`auto`: Discord's recommendation, read at start) and the ones this
     * process runs (undefined: all of them). Neither set: one shard, as a bot under 2,500 servers has.
     */
    readonly shards: { readonly count: number | 'auto'; readonly ids: readonly number[] | undefined };
  };
  readonly service: {
    readonly baseUrl: string;
    /** Single-server mode's credentials; with many servers each has its own, from /setup credentials. */
    readonly apiKey: string | undefined;
    readonly appId: string | undefined;
    readonly headerPrefix: string;
    readonly attemptTimeoutMs: number;
    readonly totalBudgetMs: number;
    readonly cacheTtlMs: number;
    readonly notVotedTtlMs: number;
    readonly maxResponseBytes: number;
  };
  /** SECRETS_KEY (and SECRETS_KEY_PREVIOUS while rotating): seals servers' secrets in the store. */
  readonly secrets: SecretKeys | undefined;
  /**
   * Single-server mode's settings of its one server, each read from its variable in SETTING_VARIABLES
   * (REVIEW_CHANNEL_ID, VOTER_ROLE_ID, …); one left unset is /setup's to decide.
   */
  readonly server: Readonly<ServerSettingsRecord>;
  readonly database: DatabaseTarget;
  /** PostgreSQL connections the store's pool keeps at most. */
  readonly databasePoolSize: number;
  /** Guilds' webhook receiver; undefined (off) unless WEBHOOK_PORT is set. */
  readonly webhook: WebhookSettings | undefined;
  /** Top.gg's API, read for votes missed while down; single-server mode's token. */
  readonly topgg: TopggSettings;
  /** Discord's Interactions Endpoint URL (`http://host:port/interactions`); undefined (off) unless INTERACTIONS_PORT is set. */
  readonly interactions: InteractionsSettings | undefined;
  /** 0: no polling of GET /votes. */
  readonly votePollMs: number;
  /** How often the expiry schedule is checked against the mirror (voter roles mended, failures retried). */
  readonly expiryCheckMs: number;
  /** What this process runs (ROLE): `all` the bot and its receiver, `bot` the bot alone (a receiver reads ReceiverConfig). */
  readonly role: Role;
  /** The inbox's safety net: stored events are looked for this often even when no wake-up came. */
  readonly inboxPollMs: number;
  /** The web dashboard (docs/dashboard.md); undefined (off) unless DASHBOARD_PORT is set. */
  readonly dashboard: DashboardSettings | undefined;
  /** Vote forwarding (docs/forwarding-and-api.md): one server's destinations, and whether private addresses are allowed. */
  readonly forward: ForwardSettings;
}

interface InteractionsSettings {
  readonly port: number;
  /** The address to listen on; undefined: every interface, as the webhook receiver. */
  readonly host: string | undefined;
  /** DISCORD_PUBLIC_KEY, hex: what every request's signature is checked with. */
  readonly publicKey: string;
}

/**
 * Settings of the one server in single-server mode; with many servers each sets its own with /setup.
 * MODERATOR_ROLE_IDS is read as a list (empty when unset) and checked on its own.
 */
const ONE_SERVER_SETTINGS = [
  ...Object.values(SETTING_VARIABLES).filter((name) => name !== 'MODERATOR_ROLE_IDS'),
  'WEBHOOK_TOKEN',
  ...LISTING_SETTINGS,
  'LISTING_TOPGG_API_TOKEN',
] as const;

type Settings = Values<typeof BOT_FIELDS>;

/**
 * A setting that only makes sense with another is checked here, so the message names both. It
 * reads each variable that parsed on its own, so these problems show in the same pass as the rest.
 */
function crossProblems(e: Partial<Settings>, guildIdWritten: boolean): string[] {
  const problems: string[] = [];
  const issue = (name: string, message: string) => problems.push(`${name} ${message}`);
  // A DISCORD_GUILD_ID that is not an id says nothing of the mode: only its own problem is reported.
  const single = e.DISCORD_GUILD_ID !== undefined;
  const many = !single && !guildIdWritten;
  if (single) {
    if (e.SERVICE_API_KEY === undefined)
      issue('SERVICE_API_KEY', "is missing: the server's API key from the server-listing service's dashboard");
    if (e.SERVICE_APP_ID === undefined)
      issue('SERVICE_APP_ID', "is missing: the server's app id from the server-listing service's dashboard");
    if (e.WEBHOOK_PORT !== undefined && e.WEBHOOK_TOKEN === undefined)
      issue(
        'WEBHOOK_TOKEN',
        "is missing: WEBHOOK_PORT is set, so the receiver needs the token from the Guilds server's webhook page",
      );
    if (e.LISTING_TOPGG_API_TOKEN !== undefined && e.LISTING_TOPGG_SECRET === undefined)
      issue(
        'LISTING_TOPGG_API_TOKEN',
        'is set without LISTING_TOPGG_SECRET: the token reads back the votes of the Top.gg listing, so set its webhook secret too',
      );
  } else if (many) {
    const why = 'DISCORD_GUILD_ID is empty, so the bot serves every server it is in';
    if (e.SECRETS_KEY === undefined)
      issue(
        'SECRETS_KEY',
        `is missing: ${why} and keeps their API keys sealed with this key; make one with: openssl rand -base64 32`,
      );
    for (const name of ['SERVICE_API_KEY', 'SERVICE_APP_ID', ...ONE_SERVER_SETTINGS] as const)
      if (e[name] !== undefined)
        issue(
          name,
          `is for a single server: ${why}, and each sets its own with /setup. Leave it empty, or set DISCORD_GUILD_ID`,
        );
    if ((e.MODERATOR_ROLE_IDS ?? []).length > 0)
      issue('MODERATOR_ROLE_IDS', `is for a single server: ${why}; each adds its own with /setup role`);
  }
  if (e.SECRETS_KEY_PREVIOUS !== undefined && e.SECRETS_KEY === undefined)
    issue(
      'SECRETS_KEY_PREVIOUS',
      'is set without SECRETS_KEY: the previous key only opens what it sealed while a new one seals',
    );
  problems.push(...shardProblems(e), ...apiProblems(e, !many), ...forwardProblems(e, !many));
  problems.push(
    ...dashboardProblems(e, {
      METRICS_PORT: e.METRICS_PORT,
      WEBHOOK_PORT: e.WEBHOOK_PORT,
      INTERACTIONS_PORT: e.INTERACTIONS_PORT,
      HEALTH_PORT: e.HEALTH_PORT,
    }),
  );
  for (const other of ['METRICS_PORT', 'WEBHOOK_PORT', 'INTERACTIONS_PORT'] as const)
    if (e.HEALTH_PORT !== undefined && e.HEALTH_PORT === e[other])
      issue('HEALTH_PORT', `must differ from ${other} (${e[other]}): /healthz alone gets a port of its own`);
  if (e.INTERACTIONS_PORT !== undefined) {
    if (e.DISCORD_PUBLIC_KEY === undefined)
      issue(
        'DISCORD_PUBLIC_KEY',
        "is missing: INTERACTIONS_PORT is set, so requests are checked with the application's public key (Developer Portal → General Information → Public Key)",
      );
    for (const other of ['METRICS_PORT', 'WEBHOOK_PORT'] as const)
      if (e.INTERACTIONS_PORT === e[other])
        issue('INTERACTIONS_PORT', `must differ from ${other} (${e[other]}): the endpoint gets a port of its own`);
  }
  return problems;
}

function shardProblems(e: Partial<Settings>): string[] {
  const ids = e.SHARD_IDS;
  const count = e.SHARD_COUNT;
  if (ids === undefined) return [];
  if (count === undefined)
    return ['SHARD_IDS is set without SHARD_COUNT: set how many shards the bot has in all (a number, or auto)'];
  const outside = typeof count === 'number' ? ids.find((id) => id >= count) : undefined;
  if (outside !== undefined && typeof count === 'number')
    return [`SHARD_IDS has shard ${outside}, but SHARD_COUNT is ${count}: shard ids run from 0 to ${count - 1}`];
  if (e.DATABASE_URL?.kind === 'sqlite' && ids.length !== count)
    return [
      'SHARD_IDS runs only some of the shards, so other processes must run the rest, and processes share a store only on PostgreSQL: set DATABASE_URL to a postgres:// URL (a SQLite file serves one process)',
    ];
  return [];
}

/** Parses and validates the environment; throws ConfigError listing every problem at once. */
export function parseConfig(env: NodeJS.ProcessEnv, terminal = onTerminal()): Config {
  const read = readFields(BOT_FIELDS, env);
  const own = read.ok ? [] : read.problems;
  // A variable with a problem of its own is not reported again for what it means to another.
  const named = new Set(own.map((line) => line.split(' ')[0]));
  const problems = [
    ...own,
    ...crossProblems(read.values, (env.DISCORD_GUILD_ID ?? '').trim() !== '').filter(
      (line) => !named.has(line.split(' ')[0]),
    ),
  ];
  if (problems.length > 0 || !read.ok) throw new ConfigError(problems);
  const e = read.values;
  return deepFreeze({
    discord: {
      ...discordSettings(e),
      restRequestsPerSecond: e.DISCORD_REST_REQUESTS_PER_SECOND,
      shards: { count: e.SHARD_COUNT ?? 1, ids: e.SHARD_IDS },
    },
    service: {
      baseUrl: e.SERVICE_BASE_URL,
      apiKey: e.SERVICE_API_KEY,
      appId: e.SERVICE_APP_ID,
      headerPrefix: e.SERVICE_HEADER_PREFIX ?? defaultHeaderPrefix(e.SERVICE_BASE_URL),
      attemptTimeoutMs: e.SERVICE_TIMEOUT_MS,
      totalBudgetMs: e.SERVICE_BUDGET_MS,
      cacheTtlMs: e.SERVICE_CACHE_TTL_SECONDS * 1000,
      notVotedTtlMs: e.SERVICE_NOT_VOTED_TTL_SECONDS * 1000,
      maxResponseBytes: e.SERVICE_MAX_RESPONSE_BYTES,
    },
    secrets: optionalSecretKeys(e),
    server: serverSettingsOf(e),
    ...processSettings(e, terminal),
    database: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    webhook: webhookSettings(e),
    topgg: topggSettings(e),
    interactions:
      e.INTERACTIONS_PORT === undefined || e.DISCORD_PUBLIC_KEY === undefined
        ? undefined
        : { port: e.INTERACTIONS_PORT, host: e.INTERACTIONS_HOST, publicKey: e.DISCORD_PUBLIC_KEY.toLowerCase() },
    votePollMs: e.VOTE_POLL_SECONDS * 1000,
    expiryCheckMs: e.EXPIRY_CHECK_SECONDS * 1000,
    role: e.ROLE,
    inboxPollMs: e.INBOX_POLL_SECONDS * 1000,
    dashboard: dashboardSettings(e),
    forward: forwardSettings(e),
  });
}

/** The one server's settings as .env sets them: each setting from its variable. */
function serverSettingsOf(e: Settings): ServerSettingsRecord {
  const settings: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(SETTING_VARIABLES)) settings[name] = e[variable];
  return settings as ServerSettingsRecord;
}

/** The parts of the settings that hold secrets, which every message shown or logged is masked with. */
export type SecretSource = Pick<
  Config,
  'discord' | 'service' | 'webhook' | 'secrets' | 'database' | 'dashboard' | 'forward'
> & { readonly topgg?: TopggSettings };

/** The values that must never reach a log line or a member: bot token, API key, app id, webhook token, database password, the dashboard's secret and keys. */
export function secretValues(config: SecretSource): string[] {
  return [
    config.discord.token,
    ...[config.service.apiKey, config.service.appId, config.webhook?.token].filter((v) => v !== undefined),
    ...keyTexts(config.secrets),
    ...listingSecretTexts(config.webhook),
    ...(config.topgg?.apiToken === undefined ? [] : [config.topgg.apiToken]),
    ...(config.database.kind === 'postgres' ? [databasePassword(config.database)] : []),
    ...dashboardSecretTexts(config.dashboard),
    ...(config.forward.secret === undefined ? [] : [config.forward.secret]),
  ];
}

/** Reads .env into process.env (what is already set wins), then parses. */
export const loadConfig = fromDotenv(parseConfig);

/** ROLE alone, read before the rest: a receiver needs none of the bot's Discord or service settings. */
export const loadRole = fromDotenv((env): Role => readOrThrow({ ROLE: BOT_FIELDS.ROLE }, env).ROLE);
