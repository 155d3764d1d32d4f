import { defaultHeaderPrefix, parseBaseUrl } from './base-url.js';
import { InvalidInputError } from './errors.js';
import type { CallOptions, ServiceClientOptions } from './types.js';

/**
 * The defaults DESIGN.md sets; the config module may show them in its help text. The header
 * prefix, when unset, follows the base URL (defaultHeaderPrefix); `Service` is the spec's.
 */
export const DEFAULT_CLIENT_OPTIONS = {
  headerPrefix: 'Service',
  // The bot defers its answer after ~2 s anyway, so a slow but working service (seconds per
  // answer) should still be waited for rather than cut off and retried.
  attemptTimeoutMs: 6_000,
  totalBudgetMs: 12_000,
  retries: 3,
  minRetryDelayMs: 200,
  maxRetryDelayMs: 2_000,
  cacheTtlMs: 30_000,
  notVotedTtlMs: 5_000,
  breakerThreshold: 5,
  breakerCooldownMs: 15_000,
  // The largest real answer (a full vote list) is far below this; a review Discord can show is 4 KB.
  maxResponseBytes: 1024 * 1024,
} as const;

/** Most results the cache keeps; past it the oldest go. */
export const MAX_CACHE_ENTRIES = 10_000;

type Tunables = {
  -readonly [K in keyof typeof DEFAULT_CLIENT_OPTIONS]: (typeof DEFAULT_CLIENT_OPTIONS)[K] extends string
    ? string
    : number;
};

export interface ResolvedOptions extends Tunables {
  baseUrl: string;
  onAttempt: ServiceClientOptions['onAttempt'];
  onRateLimit: ServiceClientOptions['onRateLimit'];
}

export interface Credentials {
  apiKey: string;
  appId: string;
}

/** Checks every option once, at construction, so a misconfiguration fails at start-up, not mid-call. */
export function resolveOptions(options: ServiceClientOptions): {
  settings: ResolvedOptions;
  credentials: () => Credentials;
} {
  const pick = <K extends keyof typeof DEFAULT_CLIENT_OPTIONS>(key: K) => options[key] ?? DEFAULT_CLIENT_OPTIONS[key];
  const baseUrl = parseBaseUrl(options.baseUrl);
  const settings: ResolvedOptions = {
    baseUrl,
    headerPrefix: options.headerPrefix ?? defaultHeaderPrefix(baseUrl),
    attemptTimeoutMs: positive('attemptTimeoutMs', pick('attemptTimeoutMs')),
    totalBudgetMs: positive('totalBudgetMs', pick('totalBudgetMs')),
    retries: count('retries', pick('retries')),
    minRetryDelayMs: atLeastZero('minRetryDelayMs', pick('minRetryDelayMs')),
    maxRetryDelayMs: atLeastZero('maxRetryDelayMs', pick('maxRetryDelayMs')),
    cacheTtlMs: atLeastZero('cacheTtlMs', pick('cacheTtlMs')),
    notVotedTtlMs: atLeastZero('notVotedTtlMs', pick('notVotedTtlMs')),
    breakerThreshold: count('breakerThreshold', pick('breakerThreshold')),
    breakerCooldownMs: atLeastZero('breakerCooldownMs', pick('breakerCooldownMs')),
    maxResponseBytes: count('maxResponseBytes', pick('maxResponseBytes')),
    onAttempt: options.onAttempt,
    onRateLimit: options.onRateLimit,
  };
  if (!/^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/.test(settings.headerPrefix)) {
    throw new InvalidInputError(
      'headerPrefix',
      'Header prefix must be letters, digits and inner hyphens, e.g. Service or Guilds.',
    );
  }
  if (settings.minRetryDelayMs > settings.maxRetryDelayMs) {
    throw new InvalidInputError('minRetryDelayMs', 'minRetryDelayMs must not exceed maxRetryDelayMs.');
  }
  const check = (given: { apiKey?: unknown; appId?: unknown }): Credentials => ({
    apiKey: secret('apiKey', 'API key', given.apiKey),
    appId: secret('appId', 'App id', given.appId),
  });
  const opened = options.credentials;
  if (opened !== undefined) return { settings, credentials: () => check(opened()) };
  const fixed = check(options);
  return { settings, credentials: () => fixed };
}

/** Checks a call's own options; a budget is a number of ms, 0 meaning "no time left". */
export function checkCallOptions(options: CallOptions | undefined): CallOptions {
  const budget = options?.budgetMs;
  if (budget !== undefined && (typeof budget !== 'number' || Number.isNaN(budget) || budget < 0)) {
    throw new InvalidInputError('budgetMs', 'budgetMs must be a number of milliseconds, 0 or more.');
  }
  if (options?.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new InvalidInputError('signal', 'signal must be an AbortSignal.');
  }
  return options ?? {};
}

// The messages never include the value: it is a credential, and header-value errors from fetch
// would quote it, which is why it is checked here first.
function secret(field: string, label: string, value: unknown): string {
  if (typeof value !== 'string' || !/^[\x21-\x7e]+$/.test(value)) {
    throw new InvalidInputError(
      field,
      `${label} must be a non-empty string of printable ASCII characters without spaces.`,
    );
  }
  return value;
}

function positive(field: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InvalidInputError(field, `${field} must be a positive, finite number of milliseconds.`);
  }
  return value;
}

function atLeastZero(field: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidInputError(field, `${field} must be a finite number of milliseconds, 0 or more.`);
  }
  return value;
}

function count(field: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new InvalidInputError(field, `${field} must be a whole number, 0 or more.`);
  }
  return value;
}
