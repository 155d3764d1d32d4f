import { randomBytes } from 'node:crypto';
import {
  InvalidInputError,
  ReplyOutcomeUnknownError,
  ReviewNotFoundError,
  ServiceError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../api/index.js';
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

interface Row<E> {
  type: abstract new (...args: never[]) => E;
  logLevel: 'warn' | 'info';
  reason: (error: E) => string;
  message: (error: E) => Omit<UserMessage, 'referenceId'>;
}

const row = <E>(r: Row<E>) => r as Row<unknown>;
const code = (error: ServiceError) => error.code;

/** DESIGN.md's "Errors a user sees", in one table. The first row whose type matches wins. */
const TABLE: readonly Row<unknown>[] = [
  row({
    type: UserFacingError,
    logLevel: 'info',
    reason: () => 'refused',
    message: (e) => ({ tone: 'warning', title: e.title, description: e.message }),
  }),
  row({
    type: InvalidInputError,
    logLevel: 'info',
    reason: code,
    message: (e) => ({ tone: 'warning', title: 'Please check your input', description: e.message }),
  }),
  row({
    type: UnauthorizedError,
    logLevel: 'warn',
    reason: code,
    message: () => ({
      tone: 'error',
      title: 'Service credentials rejected',
      description: "The bot's service credentials were rejected; an administrator must check them.",
    }),
  }),
  row({
    type: ReviewNotFoundError,
    logLevel: 'info',
    reason: code,
    message: () => ({ tone: 'warning', title: 'Review not found', description: 'That review no longer exists.' }),
  }),
  row({
    type: ServiceUnavailableError,
    logLevel: 'warn',
    reason: (e) => e.reason,
    message: () => ({
      tone: 'error',
      title: 'Service not answering',
      description: 'The service is not answering; try again shortly.',
    }),
  }),
  row({
    type: ReplyOutcomeUnknownError,
    logLevel: 'info',
    reason: code,
    message: () => ({
      tone: 'warning',
      title: 'Reply outcome unknown',
      description: 'The reply may or may not have been posted; check the review before sending it again.',
    }),
  }),
];

export function newReferenceId(): string {
  return randomBytes(4).toString('hex').toUpperCase();
}

/** The one place that turns any thrown value into its message, log level and metrics label. */
export function errorOutcome(error: unknown): ErrorOutcome {
  const match = TABLE.find((r) => error instanceof r.type);
  if (match) {
    return { message: match.message(error), logLevel: match.logLevel, reason: match.reason(error), outcome: 'refused' };
  }
  const referenceId = newReferenceId();
  return {
    message: {
      tone: 'error',
      title: 'Something went wrong',
      description: `Something went wrong on our side. If it keeps happening, give an administrator this reference: ${referenceId}.`,
      referenceId,
    },
    logLevel: 'error',
    reason: error instanceof ServiceError ? error.code : 'internal',
    outcome: 'error',
  };
}
