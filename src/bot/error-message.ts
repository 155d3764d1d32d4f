import { randomBytes } from 'node:crypto';
import {
  InvalidInputError,
  ReplyOutcomeUnknownError,
  ReviewNotFoundError,
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

export function newReferenceId(): string {
  return randomBytes(4).toString('hex').toUpperCase();
}

/** The one place that turns any thrown value into what the user reads (DESIGN.md's table). */
export function toUserMessage(error: unknown): UserMessage {
  if (error instanceof UserFacingError) return { tone: 'warning', title: error.title, description: error.message };
  if (error instanceof InvalidInputError) {
    return { tone: 'warning', title: 'Please check your input', description: error.message };
  }
  if (error instanceof UnauthorizedError) {
    return {
      tone: 'error',
      title: 'Service credentials rejected',
      description: "The bot's service credentials were rejected; an administrator must check them.",
    };
  }
  if (error instanceof ReviewNotFoundError) {
    return { tone: 'warning', title: 'Review not found', description: 'That review no longer exists.' };
  }
  if (error instanceof ServiceUnavailableError) {
    return {
      tone: 'error',
      title: 'Service not answering',
      description: 'The service is not answering; try again shortly.',
    };
  }
  if (error instanceof ReplyOutcomeUnknownError) {
    return {
      tone: 'warning',
      title: 'Reply outcome unknown',
      description: 'The reply may or may not have been posted; check the review before sending it again.',
    };
  }
  const referenceId = newReferenceId();
  return {
    tone: 'error',
    title: 'Something went wrong',
    description: `Something went wrong on our side. If it keeps happening, give an administrator this reference: ${referenceId}.`,
    referenceId,
  };
}

/** Failures that say something about the bot's health rather than the user's request. */
export function isInternal(message: UserMessage): boolean {
  return message.referenceId !== undefined;
}
