import { describe, it, expect } from '@jest/globals';
import {
  InvalidInputError,
  InvalidResponseError,
  ReplyOutcomeUnknownError,
  ReviewNotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../../../src/api/index.js';
import { errorOutcome } from '../../../src/bot/error-outcome.js';
import { translatorFor } from '../../../src/i18n/index.js';
import { UserFacingError } from '../../../src/bot/user-error.js';

describe('errorOutcome', () => {
  it.each([
    [new UnauthorizedError(), /credentials were rejected; an administrator must check them/, 'warn', 'unauthorized'],
    [new ReviewNotFoundError('rev_1'), /no longer exists/, 'info', 'review_not_found'],
    [
      new ServiceUnavailableError('retries_exhausted', 'spent'),
      /not answering; try again shortly/,
      'warn',
      'retries_exhausted',
    ],
    [new ServiceUnavailableError('circuit_open', 'open'), /not answering; try again shortly/, 'warn', 'circuit_open'],
    [
      new ReplyOutcomeUnknownError('rev_1', 'timeout'),
      /may or may not have been posted; check/,
      'info',
      'reply_outcome_unknown',
    ],
    [
      new InvalidInputError('userId', 'User id must be a Discord snowflake (17–20 digits).'),
      /must be a Discord snowflake/,
      'info',
      'invalid_input',
    ],
    [new UserFacingError('refusal.moderatorsOnly'), /Only moderators can reply to reviews/, 'info', 'refused'],
  ])('gives %p its own message, log level and label, without a reference id', (error, text, logLevel, reason) => {
    const outcome = errorOutcome(error);
    expect(outcome.message.description).toMatch(text);
    expect(outcome.message.referenceId).toBeUndefined();
    expect(outcome).toMatchObject({ logLevel, reason, outcome: 'refused' });
  });

  it('hides an unexpected error behind a generic text with a reference id, logged as an error', () => {
    const outcome = errorOutcome(
      new TypeError('Cannot read properties of undefined (reading "x") at secret-path.ts:12'),
    );
    expect(outcome.message.description).toMatch(/^Something went wrong/);
    expect(outcome.message.description).not.toContain('secret-path');
    expect(outcome.message.referenceId).toMatch(/^[0-9A-F]{8}$/);
    expect(outcome.message.description).toContain(outcome.message.referenceId);
    expect(outcome).toMatchObject({ logLevel: 'error', reason: 'internal', outcome: 'error' });
  });

  it('treats an invalid service response as unexpected, labelled by its kind', () => {
    const outcome = errorOutcome(new InvalidResponseError('rating out of range'));
    expect(outcome.message.referenceId).toBeDefined();
    expect(outcome.reason).toBe('invalid_response');
  });

  it('gives each unexpected failure its own reference id', () => {
    expect(errorOutcome(new Error('a')).message.referenceId).not.toBe(errorOutcome(new Error('a')).message.referenceId);
  });

  it("speaks the member's language, English when the locale has no catalog", () => {
    expect(errorOutcome(new UnauthorizedError(), translatorFor('de')).message.title).toBe('Zugangsdaten abgelehnt');
    expect(errorOutcome(new UserFacingError('refusal.wrongServer'), translatorFor('pt-BR')).message.description).toBe(
      'Este bot só funciona no servidor para o qual foi configurado.',
    );
    expect(errorOutcome(new UnauthorizedError(), translatorFor('ja')).message.title).toBe(
      'Service credentials rejected',
    );
  });
});
