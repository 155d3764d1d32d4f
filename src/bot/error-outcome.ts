import { randomBytes } from 'node:crypto';
import {
  InvalidInputError,
  RateLimitedError,
  ReplyOutcomeUnknownError,
  ReplyRefusedError,
  ReviewNotFoundError,
  ServiceError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../api/index.js';
import { StoreUnavailable } from '../store/within.js';
import { english, type NoticeKey, type Translator, type Vars } from '../i18n/index.js';
import { serviceText } from '../views/format.js';
import { UserFacingError } from './user-error.js';

export interface UserMessage {
  tone: 'error' | 'warning';
  title: string;
  description: string;
  /** Set for unexpected failures: shown to the user and written to the log, to match the two. */
  referenceId?: string;
}

/** Everything the bot does with a failure: what the member reads, how loudly it is logged, its metrics label. */
export interface ErrorOutcome {
  message: UserMessage;
  /** error: the bot's own fault; warn: the operator must act (credentials, service down); info: a refusal. */
  logLevel: 'error' | 'warn' | 'info';
  /** A bounded label for metrics: the error's kind, never its text. */
  reason: string;
  /** The interaction's outcome label: 'error' for the bot's own failures, 'refused' for the rest. */
  outcome: 'error' | 'refused';
}

/** What a row says to the member: a notice key of the catalogs, with its values. */
interface Notice {
  tone: UserMessage['tone'];
  key: NoticeKey;
  vars?: Vars;
}

interface Row<E> {
  type: abstract new (...args: never[]) => E;
  logLevel: 'warn' | 'info';
  reason: (error: E) => string;
  /** `secrets`: values to keep out of any text the service wrote. */
  notice: (error: E, secrets: readonly string[]) => Notice;
}

const row = <E>(r: Row<E>) => r as Row<unknown>;
const code = (error: ServiceError) => error.code;
/** A row whose notice is one key with no values. */
const fixed = <E>(
  type: Row<E>['type'],
  reason: Row<E>['reason'],
  logLevel: Row<E>['logLevel'],
  tone: Notice['tone'],
  key: NoticeKey,
) => row({ type, logLevel, reason, notice: () => ({ tone, key }) });

/** DESIGN.md's "Errors a user sees", in one table. The first row whose type matches wins. */
const TABLE: readonly Row<unknown>[] = [
  row({
    type: UserFacingError,
    logLevel: 'info',
    reason: () => 'refused',
    notice: (e) => ({ tone: 'warning', key: e.key, vars: e.vars }),
  }),
  fixed(StoreUnavailable, () => 'store_unavailable', 'warn', 'warning', 'error.storage'),
  row({
    type: ReplyRefusedError,
    logLevel: 'info',
    reason: code,
    // The service's own words: escaped, links removed, secrets out, short.
    notice: (e, secrets) => ({
      tone: 'warning',
      key: 'error.replyRefused',
      vars: { detail: serviceText(e.serviceText, secrets) },
    }),
  }),
  row({
    type: InvalidInputError,
    logLevel: 'info',
    reason: code,
    notice: (e) =>
      e.field === 'userId'
        ? { tone: 'warning', key: 'error.userId' }
        : { tone: 'warning', key: 'error.input', vars: { detail: e.message } },
  }),
  fixed(UnauthorizedError, code, 'warn', 'error', 'error.credentials'),
  fixed(ReviewNotFoundError, code, 'info', 'warning', 'error.reviewGone'),
  row({
    type: RateLimitedError,
    // The limiter doing its job: counted in metrics, not an operator's alarm.
    logLevel: 'info',
    reason: (e) => e.reason,
    notice: (e) =>
      e.retryAfterSeconds <= 1
        ? { tone: 'warning', key: 'error.slowDownSecond' }
        : { tone: 'warning', key: 'error.slowDown', vars: { seconds: e.retryAfterSeconds } },
  }),
  fixed(ServiceUnavailableError, (e) => e.reason, 'warn', 'error', 'error.unavailable'),
  fixed(ReplyOutcomeUnknownError, code, 'info', 'warning', 'error.replyUnknown'),
];

export function newReferenceId(): string {
  return randomBytes(4).toString('hex').toUpperCase();
}

/**
 * The one place that turns any thrown value into its message (in the member's language), log
 * level and metrics label. `secrets` (the bot's token and credentials) are removed from any
 * service text shown.
 */
export function errorOutcome(
  error: unknown,
  { t }: Translator = english,
  secrets: readonly string[] = [],
): ErrorOutcome {
  const match = TABLE.find((r) => error instanceof r.type);
  if (match) {
    const { tone, key, vars } = match.notice(error, secrets);
    const message = { tone, title: t(`${key}.title`), description: t(`${key}.text`, vars) };
    return { message, logLevel: match.logLevel, reason: match.reason(error), outcome: 'refused' };
  }
  const referenceId = newReferenceId();
  return {
    message: {
      tone: 'error',
      title: t('error.internal.title'),
      description: t('error.internal.text', { reference: referenceId }),
      referenceId,
    },
    logLevel: 'error',
    reason: error instanceof ServiceError ? error.code : 'internal',
    outcome: 'error',
  };
}
