import { describe, it, expect } from '@jest/globals';
import {
  InvalidInputError,
  InvalidResponseError,
  RateLimitedError,
  ReplyOutcomeUnknownError,
  ReplyRefusedError,
  ReviewNotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../../../src/api/index.js';
import { errorOutcome } from '../../../src/bot/error-outcome.js';
import { english, translatorFor } from '../../../src/i18n/index.js';
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

  it('tells a member the service asked the bot to slow down, and for how long', () => {
    const outcome = errorOutcome(new RateLimitedError(4_200));
    expect(outcome.message.description).toBe('The service asked the bot to slow down; try again in about 5 seconds.');
    expect(outcome).toMatchObject({ logLevel: 'info', reason: 'rate_limited', outcome: 'refused' });
    expect(outcome.message.referenceId).toBeUndefined();
    expect(errorOutcome(new RateLimitedError(800)).message.description).toBe(
      'The service asked the bot to slow down; try again in a second.',
    );
  });

  describe('a refusal in the service’s own words', () => {
    const secrets = ['bot-token.abc.def', 'api-key-"quoted"', 'app-id-123'];
    const shown = (text: string) => errorOutcome(new ReplyRefusedError(text), english, secrets).message.description;

    it('keeps the API key, the app id and the bot token out, also in their JSON-escaped form', () => {
      const text = shown('bad key api-key-"quoted" (raw: api-key-\\"quoted\\") for app-id-123 via bot-token.abc.def');
      for (const secret of [...secrets, 'api-key-\\"quoted\\"']) expect(text).not.toContain(secret);
      expect(text).toContain('redacted');
    });

    it('shows a masked link and a bare link as text that cannot be clicked', () => {
      const text = shown('see [your dashboard](https://evil.example/login) or https://evil.example/x');
      expect(text).not.toMatch(/https?:\/\//);
      expect(text).not.toMatch(/\]\(/);
      expect(text).toContain('link removed');
    });

    it('escapes markdown and mentions, drops direction overrides, and keeps it short', () => {
      const text = shown(`**bold** @everyone \u202Eevil ${'x'.repeat(1000)}`);
      expect(text).toContain('\\*\\*bold\\*\\*');
      expect(text).not.toContain('@everyone');
      expect(text).not.toContain('\u202E');
      expect(text.length).toBeLessThan(260);
    });
  });
});
