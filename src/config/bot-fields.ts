// Every setting the bot reads, in the order its problems are reported: the shared groups and the
// bot's own (Discord's shards, the server-listing service, single-server mode's server, timers).
import {
  type Check,
  commaList,
  checked,
  fail,
  field,
  from,
  httpUrl,
  intInRange,
  matching,
  ok,
  oneOf,
  optional,
  orDefault,
  port,
  required,
  trimmed,
  validatedBy,
  wholeNumber,
  yesNo,
} from './fields.js';
import {
  DATABASE_URL,
  DISCORD_FIELDS,
  LOG_FIELDS,
  PROCESS_FIELDS,
  SECRETS_FIELDS,
  snowflake,
  WEBHOOK_FIELDS,
} from './shared-fields.js';
import { DEFAULT_CLIENT_OPTIONS as API_DEFAULTS, parseBaseUrl, SNOWFLAKE } from '../api/index.js';
import { MAX_SHARD_COUNT, parseShardIds } from '../shards/shard-ids.js';
import { DEFAULT_POOL_SIZE } from '../store/database-url.js';
import { checkTemplate, PLACEHOLDERS, TEMPLATE_MAX } from '../announce/template.js';
import { STREAK_GRACE_HOURS_MAX } from '../streaks/streak.js';
import { DASHBOARD_FIELDS } from './dashboard.js';
import { TOPGG_FIELDS } from './topgg-fields.js';
import { FORWARD_FIELDS } from './forward.js';

const ROLES = ['all', 'bot', 'receiver'] as const;
export type Role = (typeof ROLES)[number];

const template = (hint: string) =>
  checked((value) => {
    const check = checkTemplate(value);
    if (check.ok) return undefined;
    const message = {
      empty: 'must show some visible text besides {double} (invisible characters and spaces do not count)',
      tooLong: `is too long: at most ${TEMPLATE_MAX} characters, and short enough that its longest rendering fits a Discord message`,
      unknown: `names unknown placeholders (${check.problem === 'unknown' ? check.unknown.map((n) => `{${n}}`).join(', ') : ''}); the known ones are ${PLACEHOLDERS.map((n) => `{${n}}`).join(' ')}`,
    }[check.problem];
    return `${message}: ${hint}`;
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
const roleIds = commaList((id) => SNOWFLAKE.test(id), 'must be role ids (17–20 digits) separated by commas');

export const BOT_FIELDS = {
  ...DISCORD_FIELDS,
  DISCORD_REST_REQUESTS_PER_SECOND: intInRange(1, 10_000, 200),
  SHARD_COUNT: optional(shardCount),
  SHARD_IDS: optional(from(parseShardIds)),
  SERVICE_BASE_URL: required(
    validatedBy(parseBaseUrl, (message) => `is not usable: ${message}`),
    'the service base URL ending in /v1, e.g. https://api.example.com/v1',
  ),
  SERVICE_API_KEY: optional(trimmed),
  SERVICE_APP_ID: optional(trimmed),
  ...SECRETS_FIELDS,
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
  ANNOUNCE_EVERY_LIST: optional(yesNo('whether a member who voted on every list today gets a line saying so')),
  STREAK_GRACE_HOURS: optional(
    wholeNumber(0, STREAK_GRACE_HOURS_MAX, {
      notWhole: `must be a whole number of hours from 0 to ${STREAK_GRACE_HOURS_MAX}`,
    }),
  ),
  ...LOG_FIELDS,
  ...PROCESS_FIELDS,
  DATABASE_URL,
  DATABASE_POOL_SIZE: intInRange(1, 100, DEFAULT_POOL_SIZE),
  ...WEBHOOK_FIELDS,
  ...TOPGG_FIELDS,
  DISCORD_PUBLIC_KEY: optional(
    matching(
      /^[0-9a-fA-F]{64}$/,
      "must be 64 hex characters: the application's public key (Developer Portal → General Information → Public Key)",
    ),
  ),
  INTERACTIONS_PORT: optional(port),
  INTERACTIONS_HOST: optional(trimmed),
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
  ...DASHBOARD_FIELDS,
  ...FORWARD_FIELDS,
};
