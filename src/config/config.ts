import { config as loadDotenv } from 'dotenv';
import { isIP } from 'node:net';
import {
  type Check,
  checked,
  fail,
  field,
  type Fields,
  matching,
  ok,
  oneOf,
  optional,
  orDefault,
  pick,
  readFields,
  required,
  trimmed,
  type Values,
  wholeNumber,
} from './fields.js';
import { EXIT_CONFIG } from '../core/exit-codes.js';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../core/log.js';
import { DEFAULT_CLIENT_OPTIONS as API_DEFAULTS, defaultHeaderPrefix, parseBaseUrl, SNOWFLAKE } from '../api/index.js';
import { secretKey, type SecretKeys } from '../secrets/secret-box.js';
import { MAX_SHARD_COUNT, parseShardIds } from '../shards/shard-ids.js';
import { DEFAULT_DATABASE_URL, parseDatabaseUrl, type DatabaseTarget } from '../store/database-url.js';
import { DEFAULT_POOL_SIZE } from '../store/database-url.js';
import { DEFAULT_MAX_CONNECTIONS } from './webhook-limits.js';
import { checkTemplate, PLACEHOLDERS, TEMPLATE_MAX } from '../announce/template.js';
import { STREAK_GRACE_HOURS_MAX } from '../streaks/streak.js';

/** Everything the bot reads from the environment, parsed once. */
export interface Config {
  readonly discord: {
    readonly token: string;
    readonly clientId: string;
    /** Single-server mode: the one server the bot serves, set up from this environment. Unset: every server it is in. */
    readonly guildId: string | undefined;
    /** REST base without /v10; undefined means Discord's own. */
    readonly apiUrl: string | undefined;
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
  readonly moderatorRoleIds: readonly string[];
  readonly reviewLogChannelId: string | undefined;
  readonly voteUrl: string | undefined;
  /** Single-server mode's wording of vote announcements; unset: /setup announce decides. */
  readonly announce: {
    readonly template: string | undefined;
    readonly firstVoteTemplate: string | undefined;
    readonly pingVoter: boolean | undefined;
  };
  /** Single-server mode's streak grace window in hours; unset: /setup streak decides (default 12). */
  readonly streakGraceHours: number | undefined;
  readonly logLevel: LogLevel;
  /** pretty: coloured lines for a person at a terminal; json: one object per line for a log collector. */
  readonly logFormat: LogFormat;
  readonly metricsPort: number | undefined;
  /** The address /healthz and /metrics listen on. */
  readonly metricsHost: string;
  /** /healthz alone on 127.0.0.1, for a container's health check; the image sets it. */
  readonly healthPort: number | undefined;
  readonly shutdownGraceMs: number;
  readonly database: DatabaseTarget;
  /** PostgreSQL connections the store's pool keeps at most. */
  readonly databasePoolSize: number;
  /** Guilds' webhook receiver; undefined (off) unless WEBHOOK_PORT is set. */
  readonly webhook:
    | {
        readonly port: number;
        readonly host: string | undefined;
        readonly path: string;
        /** Single-server mode's token for the plain path; every server's own token is set with /setup webhook. */
        readonly token: string | undefined;
        /** The address Guilds reaches the receiver at (behind the proxy), shown by /setup webhook. */
        readonly publicUrl: string | undefined;
        /** Concurrent connections kept; past it new ones are closed at once. */
        readonly maxConnections: number;
      }
    | undefined;
  readonly reviewChannelId: string | undefined;
  readonly voteChannelId: string | undefined;
  /** 0: no polling of GET /votes. */
  readonly votePollMs: number;
  /** The role a member holds while their vote runs; undefined: no role is given. */
  readonly voterRoleId: string | undefined;
  /** Where a vote reminder goes when the member's DMs are closed. */
  readonly reminderChannelId: string | undefined;
  /** How often the expiry schedule is checked against the mirror (voter roles mended, failures retried). */
  readonly expiryCheckMs: number;
  /** What this process runs (ROLE): `all` the bot and its receiver, `bot` the bot alone (a receiver reads ReceiverConfig). */
  readonly role: Role;
  /** The inbox's safety net: stored events are looked for this often even when no wake-up came. */
  readonly inboxPollMs: number;
}

export const ROLES = ['all', 'bot', 'receiver'] as const;
export type Role = (typeof ROLES)[number];

export class ConfigError extends Error {
  /** A supervisor stops restarting on it: the same settings would fail again. */
  readonly exitCode = EXIT_CONFIG;

  constructor(readonly problems: readonly string[]) {
    super(
      [
        `The bot's configuration has ${problems.length} problem${problems.length === 1 ? '' : 's'}:`,
        ...problems.map((p) => `  - ${p}`),
        'Set these in .env (copy .env.example to .env to start) or in the environment.',
      ].join('\n'),
    );
    this.name = 'ConfigError';
  }
}

// Each hint says what belongs in the variable; it is shown with the problem. Values of secret
// variables are never echoed back.
const snowflake = (hint: string) => matching(SNOWFLAKE, `must be a Discord id (17–20 digits): ${hint}`);
/** A key as written (checked here so the message names the setting; never echoed). */
const secretKeyText = (name: string) =>
  validatedBy(
    (value) => secretKey(value, name),
    (message) => message.replace(`${name} `, ''),
  );
const intInRange = (min: number, max: number, fallback: number) => orDefault(wholeNumber(min, max), fallback);
const template = (hint: string) =>
  checked((value) => {
    const check = checkTemplate(value);
    if (check.ok) return undefined;
    const message = {
      empty: 'must have some text besides {double}',
      tooLong: `is too long: at most ${TEMPLATE_MAX} characters, and short enough that its longest rendering fits a Discord message`,
      unknown: `names unknown placeholders (${check.problem === 'unknown' ? check.unknown.map((n) => `{${n}}`).join(', ') : ''}); the known ones are ${PLACEHOLDERS.map((n) => `{${n}}`).join(' ')}`,
    }[check.problem];
    return `${message}: ${hint}`;
  });
const yesNo =
  (hint: string): Check<boolean> =>
  (text) => {
    const value = text.trim().toLowerCase();
    return value === 'true' || value === 'false' ? ok(value === 'true') : fail(`must be true or false: ${hint}`);
  };
const httpUrl = (hint: string) =>
  checked((value) => {
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') return undefined;
    } catch {
      // not a URL at all: the same message
    }
    return `must be an http(s) URL: ${hint}`;
  });
// The parsers shared with other code throw; their message (worded for the setting) becomes its problem.
const from =
  <T>(parse: (value: string) => T, wording: (message: string) => string = (message) => message): Check<T> =>
  (text) => {
    try {
      return ok(parse(text.trim()));
    } catch (error) {
      return fail(wording((error as Error).message));
    }
  };
/** Checked by a shared parser that throws; the setting keeps the text as written (trimmed). */
const validatedBy = (validate: (value: string) => unknown, wording?: (message: string) => string) =>
  from((value) => {
    validate(value);
    return value;
  }, wording);

const port = wholeNumber(1, 65_535, {
  notWhole: 'must be a port from 1 to 65535',
  under: 'must be a port from 1 to 65535',
  over: 'must be a port from 1 to 65535',
});
const shardCount: Check<number | 'auto'> = (text) => {
  const value = text.trim();
  if (value === 'auto') return ok(value);
  const count = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (count >= 1 && count <= MAX_SHARD_COUNT) return ok(count);
  return fail(
    `must be the bot's number of shards in all, from 1 to ${MAX_SHARD_COUNT}, or auto (Discord's recommendation)`,
  );
};
const roleIds: Check<string[]> = (text) => {
  const ids = text
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const problems = ids.flatMap((id, at) =>
    SNOWFLAKE.test(id) ? [] : [{ at, message: 'must be role ids (17–20 digits) separated by commas' }],
  );
  return problems.length === 0 ? ok(ids) : { ok: false, problems };
};
const databaseUrl = from(parseDatabaseUrl);
const APPLICATION_ID = 'the application id (Developer Portal → General Information → Application ID)';

const FIELDS = {
  DISCORD_TOKEN: required(trimmed, "your bot's token (Developer Portal → your application → Bot → Reset Token)"),
  DISCORD_CLIENT_ID: required(snowflake(APPLICATION_ID), APPLICATION_ID),
  DISCORD_GUILD_ID: optional(
    snowflake(
      'the id of the one server the bot serves (right-click the server → Copy Server ID), or leave empty to serve every server it is invited to',
    ),
  ),
  DISCORD_API_URL: optional(httpUrl('a Discord REST base such as a REST proxy, without /v10; leave empty for Discord')),
  DISCORD_REST_REQUESTS_PER_SECOND: intInRange(1, 10_000, 200),
  SHARD_COUNT: optional(shardCount),
  SHARD_IDS: optional(from(parseShardIds)),
  SERVICE_BASE_URL: required(
    validatedBy(parseBaseUrl, (message) => `is not usable: ${message}`),
    'the service base URL ending in /v1, e.g. https://api.example.com/v1',
  ),
  SERVICE_API_KEY: optional(trimmed),
  SERVICE_APP_ID: optional(trimmed),
  SECRETS_KEY: optional(secretKeyText('SECRETS_KEY')),
  SECRETS_KEY_PREVIOUS: optional(secretKeyText('SECRETS_KEY_PREVIOUS')),
  SERVICE_HEADER_PREFIX: optional(
    matching(/^[A-Za-z][A-Za-z0-9]*$/, 'must be a single word such as Service or Guilds'),
  ),
  SERVICE_TIMEOUT_MS: intInRange(100, 60_000, API_DEFAULTS.attemptTimeoutMs),
  // At most 7 min: the reply form's post and refresh, one after the other, stay within the 15 min an
  // interaction token lives, so no handler needs a deadline of its own.
  SERVICE_BUDGET_MS: intInRange(100, 420_000, API_DEFAULTS.totalBudgetMs),
  SERVICE_CACHE_TTL_SECONDS: intInRange(0, 86_400, API_DEFAULTS.cacheTtlMs / 1000),
  SERVICE_NOT_VOTED_TTL_SECONDS: intInRange(0, 3_600, API_DEFAULTS.notVotedTtlMs / 1000),
  SERVICE_MAX_RESPONSE_BYTES: intInRange(1_024, 64 * 1024 * 1024, API_DEFAULTS.maxResponseBytes),
  MODERATOR_ROLE_IDS: field(roleIds, () => ok([])),
  REVIEW_LOG_CHANNEL_ID: optional(
    snowflake('the id of the channel that receives reply audit messages, or leave empty'),
  ),
  VOTE_URL: optional(httpUrl("your server's vote page, shown to members who have not voted")),
  ANNOUNCE_TEMPLATE: optional(template('how vote announcements are worded, e.g. {user} voted! Streak: {streak}')),
  ANNOUNCE_FIRST_VOTE_TEMPLATE: optional(template("how a member's first vote is announced")),
  ANNOUNCE_PING_VOTER: optional(yesNo('whether {user} in an announcement pings the voter')),
  STREAK_GRACE_HOURS: optional(
    wholeNumber(0, STREAK_GRACE_HOURS_MAX, {
      notWhole: `must be a whole number of hours from 0 to ${STREAK_GRACE_HOURS_MAX}`,
    }),
  ),
  LOG_LEVEL: orDefault(oneOf(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`), 'info'),
  LOG_FORMAT: optional(
    oneOf(LOG_FORMATS, 'must be json (one object per line, for a log collector) or pretty (for a person reading)'),
  ),
  METRICS_PORT: optional(port),
  METRICS_HOST: orDefault(
    checked((value) =>
      isIP(value) !== 0 || value === 'localhost'
        ? undefined
        : 'must be an IP address to listen on: 127.0.0.1 (this machine only, the default), or 0.0.0.0 / :: (every interface, e.g. for Prometheus in another container)',
    ),
    '127.0.0.1',
  ),
  HEALTH_PORT: optional(port),
  SHUTDOWN_GRACE_MS: intInRange(0, 60_000, 4_000),
  // The default is parsed per read, not shared: deepFreeze freezes what each config holds.
  DATABASE_URL: field(databaseUrl, () => databaseUrl(DEFAULT_DATABASE_URL)),
  DATABASE_POOL_SIZE: intInRange(1, 100, DEFAULT_POOL_SIZE),
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
  WEBHOOK_PUBLIC_URL: optional(
    httpUrl('the address Guilds reaches the receiver at, e.g. https://bot.example.com (the path is added)'),
  ),
  REVIEW_CHANNEL_ID: optional(snowflake('the id of the channel that receives new reviews, or leave empty')),
  VOTE_CHANNEL_ID: optional(snowflake('the id of the channel that receives vote announcements, or leave empty')),
  VOTE_POLL_SECONDS: intInRange(0, 86_400, 60),
  VOTER_ROLE_ID: optional(
    snowflake(
      'the id of the role members hold while their vote runs (right-click the role → Copy Role ID), or leave empty',
    ),
  ),
  EXPIRY_CHECK_SECONDS: intInRange(1, 86_400, 300),
  REMINDER_CHANNEL_ID: optional(
    snowflake('the id of the channel where members with closed DMs get their vote reminder, or leave empty'),
  ),
  ROLE: orDefault(
    oneOf(
      ROLES,
      'must be all (the bot and its webhook receiver, the default), bot (the bot alone) or receiver (the webhook receiver alone)',
    ),
    'all',
  ),
  INBOX_POLL_SECONDS: intInRange(1, 3_600, 30),
};

/** Settings of the one server in single-server mode; with many servers each sets its own with /setup. */
const ONE_SERVER_SETTINGS = [
  'REVIEW_CHANNEL_ID',
  'VOTE_CHANNEL_ID',
  'REVIEW_LOG_CHANNEL_ID',
  'REMINDER_CHANNEL_ID',
  'VOTER_ROLE_ID',
  'VOTE_URL',
  'ANNOUNCE_TEMPLATE',
  'ANNOUNCE_FIRST_VOTE_TEMPLATE',
  'ANNOUNCE_PING_VOTER',
  'STREAK_GRACE_HOURS',
  'WEBHOOK_TOKEN',
] as const;

type Settings = Values<typeof FIELDS>;

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
  problems.push(...shardProblems(e));
  for (const other of ['METRICS_PORT', 'WEBHOOK_PORT'] as const)
    if (e.HEALTH_PORT !== undefined && e.HEALTH_PORT === e[other])
      issue('HEALTH_PORT', `must differ from ${other} (${e[other]}): /healthz alone gets a port of its own`);
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
export function parseConfig(env: NodeJS.ProcessEnv, terminal = process.stdout.isTTY === true): Config {
  const read = readFields(FIELDS, env);
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
      token: e.DISCORD_TOKEN,
      clientId: e.DISCORD_CLIENT_ID,
      guildId: e.DISCORD_GUILD_ID,
      apiUrl: e.DISCORD_API_URL,
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
    secrets: e.SECRETS_KEY === undefined ? undefined : secretKeys(e.SECRETS_KEY, e.SECRETS_KEY_PREVIOUS),
    moderatorRoleIds: e.MODERATOR_ROLE_IDS,
    reviewLogChannelId: e.REVIEW_LOG_CHANNEL_ID,
    voteUrl: e.VOTE_URL,
    announce: {
      template: e.ANNOUNCE_TEMPLATE,
      firstVoteTemplate: e.ANNOUNCE_FIRST_VOTE_TEMPLATE,
      pingVoter: e.ANNOUNCE_PING_VOTER,
    },
    streakGraceHours: e.STREAK_GRACE_HOURS,
    logLevel: e.LOG_LEVEL,
    // A person is watching a terminal; anything else (a pipe, a collector, a test) reads JSON.
    logFormat: e.LOG_FORMAT ?? (terminal ? 'pretty' : 'json'),
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    healthPort: e.HEALTH_PORT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    database: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    webhook:
      e.WEBHOOK_PORT === undefined
        ? undefined
        : {
            port: e.WEBHOOK_PORT,
            host: e.WEBHOOK_HOST,
            path: e.WEBHOOK_PATH,
            token: e.WEBHOOK_TOKEN,
            publicUrl: e.WEBHOOK_PUBLIC_URL,
            maxConnections: e.WEBHOOK_MAX_CONNECTIONS,
          },
    reviewChannelId: e.REVIEW_CHANNEL_ID,
    voteChannelId: e.VOTE_CHANNEL_ID,
    votePollMs: e.VOTE_POLL_SECONDS * 1000,
    voterRoleId: e.VOTER_ROLE_ID,
    reminderChannelId: e.REMINDER_CHANNEL_ID,
    expiryCheckMs: e.EXPIRY_CHECK_SECONDS * 1000,
    role: e.ROLE,
    inboxPollMs: e.INBOX_POLL_SECONDS * 1000,
  });
}

/** The values that must never reach a log line or a member: bot token, API key, app id, webhook token, database password. */
export function secretValues(config: Config): string[] {
  return [
    config.discord.token,
    ...[config.service.apiKey, config.service.appId, config.webhook?.token].filter((v) => v !== undefined),
    ...[config.secrets?.current, config.secrets?.previous].flatMap((k) => (k ? [k.key.toString('base64')] : [])),
    ...(config.database.kind === 'postgres' ? [decodeURIComponent(new URL(config.database.url).password)] : []),
  ];
}

/** Reads .env, or the file DOTENV_CONFIG_PATH names (dotenv's own setting), into process.env without overriding what is already set, then parses. */
export function loadConfig(path?: string): Config {
  loadDotenv({ path, quiet: true });
  return parseConfig(process.env);
}

/** Every problem at once, each line starting with the variable's name. */
function parseOrThrow<F extends Fields>(fields: F, env: NodeJS.ProcessEnv): Values<F> {
  const read = readFields(fields, env);
  if (!read.ok) throw new ConfigError(read.problems);
  return read.values;
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) {
    // A key's bytes stay a Buffer (Node's crypto reads it); the object holding it is frozen.
    if (child && typeof child === 'object' && !ArrayBuffer.isView(child)) deepFreeze(child);
  }
  return Object.freeze(value);
}

export interface DeployConfig {
  readonly token: string;
  readonly clientId: string;
  /** Single-server mode: the commands go to this server; unset: registered globally, for every server. */
  readonly guildId: string | undefined;
  readonly apiUrl: string | undefined;
}

const DEPLOY_FIELDS = pick(FIELDS, ['DISCORD_TOKEN', 'DISCORD_CLIENT_ID', 'DISCORD_GUILD_ID', 'DISCORD_API_URL']);

/** The deploy script needs only the Discord part: it must work before the service is set up. */
export function loadDeployConfig(path?: string): DeployConfig {
  loadDotenv({ path, quiet: true });
  const e = parseOrThrow(DEPLOY_FIELDS, process.env);
  return Object.freeze({
    token: e.DISCORD_TOKEN,
    clientId: e.DISCORD_CLIENT_ID,
    guildId: e.DISCORD_GUILD_ID,
    apiUrl: e.DISCORD_API_URL,
  });
}

export interface RotateConfig {
  readonly database: DatabaseTarget;
  readonly secrets: SecretKeys;
}

const ROTATE_FIELDS = {
  ...pick(FIELDS, ['DATABASE_URL', 'SECRETS_KEY', 'SECRETS_KEY_PREVIOUS']),
  SECRETS_KEY: required(
    secretKeyText('SECRETS_KEY'),
    'the new key, which seals every secret from now on (openssl rand -base64 32)',
  ),
};

/** `npm run rotate-secrets` needs only the store and the keys: it must run with the bot stopped and Discord unset. */
export function loadRotateConfig(path?: string): RotateConfig {
  loadDotenv({ path, quiet: true });
  const e = parseOrThrow(ROTATE_FIELDS, process.env);
  return deepFreeze({
    database: e.DATABASE_URL,
    secrets: secretKeys(e.SECRETS_KEY, e.SECRETS_KEY_PREVIOUS),
  });
}

function secretKeys(current: string, previous: string | undefined): SecretKeys {
  return {
    current: secretKey(current, 'SECRETS_KEY'),
    ...(previous === undefined ? {} : { previous: secretKey(previous, 'SECRETS_KEY_PREVIOUS') }),
  };
}

/** ROLE alone, read before the rest: a receiver needs none of the bot's Discord or service settings. */
export function loadRole(path?: string): Role {
  loadDotenv({ path, quiet: true });
  return parseOrThrow(pick(FIELDS, ['ROLE']), process.env).ROLE;
}

/** What a receiver-only process (ROLE=receiver, `npm run receiver`) reads: the store, the receiver, logs, health. */
export interface ReceiverConfig {
  /** Single-server mode's server, whose deliveries also come to the plain path with WEBHOOK_TOKEN. */
  readonly guildId: string | undefined;
  readonly secrets: SecretKeys | undefined;
  readonly database: DatabaseTarget & { kind: 'postgres' };
  readonly webhook: NonNullable<Config['webhook']>;
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
  readonly metricsPort: number | undefined;
  readonly metricsHost: string;
  readonly healthPort: number | undefined;
  readonly shutdownGraceMs: number;
}

const RECEIVER_FIELDS = pick(FIELDS, [
  'DISCORD_GUILD_ID',
  'SECRETS_KEY',
  'SECRETS_KEY_PREVIOUS',
  'DATABASE_URL',
  'WEBHOOK_PORT',
  'WEBHOOK_HOST',
  'WEBHOOK_PATH',
  'WEBHOOK_TOKEN',
  'WEBHOOK_MAX_CONNECTIONS',
  'WEBHOOK_PUBLIC_URL',
  'LOG_LEVEL',
  'LOG_FORMAT',
  'METRICS_PORT',
  'METRICS_HOST',
  'HEALTH_PORT',
  'SHUTDOWN_GRACE_MS',
]);

/**
 * A receiver process holds nothing but its connections: it needs a store other processes share
 * (PostgreSQL; a SQLite file is one process's), a port, and what opens each server's token.
 */
export function parseReceiverConfig(env: NodeJS.ProcessEnv, terminal = process.stdout.isTTY === true): ReceiverConfig {
  const e = parseOrThrow(RECEIVER_FIELDS, env);
  const problems: string[] = [];
  if (e.DATABASE_URL.kind !== 'postgres')
    problems.push(
      'DATABASE_URL must be a postgres:// URL for ROLE=receiver: a SQLite file serves one process, so a receiver of its own cannot share it. Use PostgreSQL, or run the receiver inside the bot (ROLE=all, the default)',
    );
  if (e.WEBHOOK_PORT === undefined)
    problems.push('WEBHOOK_PORT is missing: ROLE=receiver runs only the webhook receiver, on this port');
  if (e.DISCORD_GUILD_ID !== undefined && e.WEBHOOK_TOKEN === undefined)
    problems.push(
      "WEBHOOK_TOKEN is missing: DISCORD_GUILD_ID is set, so the plain path needs the Guilds server's token",
    );
  if (e.DISCORD_GUILD_ID === undefined && e.SECRETS_KEY === undefined)
    problems.push(
      'SECRETS_KEY is missing: DISCORD_GUILD_ID is empty, so each server has its own token, sealed with the key the bot uses',
    );
  if (e.HEALTH_PORT !== undefined && (e.HEALTH_PORT === e.METRICS_PORT || e.HEALTH_PORT === e.WEBHOOK_PORT))
    problems.push('HEALTH_PORT must differ from METRICS_PORT and WEBHOOK_PORT: /healthz alone gets a port of its own');
  if (problems.length > 0 || e.DATABASE_URL.kind !== 'postgres' || e.WEBHOOK_PORT === undefined)
    throw new ConfigError(problems);
  return deepFreeze({
    guildId: e.DISCORD_GUILD_ID,
    secrets: e.SECRETS_KEY === undefined ? undefined : secretKeys(e.SECRETS_KEY, e.SECRETS_KEY_PREVIOUS),
    database: e.DATABASE_URL,
    webhook: {
      port: e.WEBHOOK_PORT,
      host: e.WEBHOOK_HOST,
      path: e.WEBHOOK_PATH,
      token: e.WEBHOOK_TOKEN,
      publicUrl: e.WEBHOOK_PUBLIC_URL,
      maxConnections: e.WEBHOOK_MAX_CONNECTIONS,
    },
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (terminal ? 'pretty' : 'json'),
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    healthPort: e.HEALTH_PORT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
  });
}

export function loadReceiverConfig(path?: string): ReceiverConfig {
  loadDotenv({ path, quiet: true });
  return parseReceiverConfig(process.env);
}

/** A receiver's secrets: the webhook token, the keys and the database password. */
export function receiverSecretValues(config: ReceiverConfig): string[] {
  return [
    ...(config.webhook.token === undefined ? [] : [config.webhook.token]),
    ...[config.secrets?.current, config.secrets?.previous].flatMap((k) => (k ? [k.key.toString('base64')] : [])),
    decodeURIComponent(new URL(config.database.url).password),
  ];
}

/** `npm run rest-proxy`: @discordjs/proxy in front of Discord, so every bot process shares one global budget. */
export interface RestProxyConfig {
  readonly port: number;
  readonly host: string;
  /** Where the proxy sends requests: Discord (default) or a stand-in; REST base without /v10. */
  readonly upstream: string;
  readonly requestsPerSecond: number;
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
}

const REST_PROXY_FIELDS = {
  REST_PROXY_PORT: orDefault(port, 8080),
  REST_PROXY_HOST: orDefault(trimmed, '127.0.0.1'),
  REST_PROXY_UPSTREAM: orDefault(
    httpUrl("Discord's REST base the proxy forwards to, without /v10; leave empty for Discord"),
    'https://discord.com/api',
  ),
  // Discord's limit is 50 per second per bot. The proxy counts in fixed one-second windows from
  // where it sends; Discord counts where requests arrive, and a few late ones from one window can
  // land in the next (measured: 66 at 50/s on a loaded 2-core machine). 45 leaves that margin.
  REST_PROXY_REQUESTS_PER_SECOND: intInRange(1, 50, 25),
  LOG_LEVEL: FIELDS.LOG_LEVEL,
  LOG_FORMAT: FIELDS.LOG_FORMAT,
};

export function parseRestProxyConfig(
  env: NodeJS.ProcessEnv,
  terminal = process.stdout.isTTY === true,
): RestProxyConfig {
  const e = parseOrThrow(REST_PROXY_FIELDS, env);
  return Object.freeze({
    port: e.REST_PROXY_PORT,
    host: e.REST_PROXY_HOST,
    upstream: e.REST_PROXY_UPSTREAM,
    requestsPerSecond: e.REST_PROXY_REQUESTS_PER_SECOND,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (terminal ? 'pretty' : 'json'),
  });
}

export function loadRestProxyConfig(path?: string): RestProxyConfig {
  loadDotenv({ path, quiet: true });
  return parseRestProxyConfig(process.env);
}

/**
 * Every setting the bot reads, by variable name. docs/configuration.md and .env.example are checked
 * against it (names and defaults), so a new setting cannot go undocumented.
 */
export const SETTINGS: Fields = { ...FIELDS, ...REST_PROXY_FIELDS };
