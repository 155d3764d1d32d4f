import { describe, it, expect } from '@jest/globals';
import {
  InvalidInputError,
  InvalidResponseError,
  ReplyOutcomeUnknownError,
  ReviewNotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../../../src/api/index.js';
import { toUserMessage } from '../../../src/bot/error-message.js';
import { UserFacingError } from '../../../src/bot/user-error.js';

describe('toUserMessage', () => {
  it.each([
    [new UnauthorizedError(), /credentials were rejected; an administrator must check them/],
    [new ReviewNotFoundError('rev_1'), /no longer exists/],
    [new ServiceUnavailableError('retries_exhausted', 'spent'), /not answering; try again shortly/],
    [new ServiceUnavailableError('circuit_open', 'open'), /not answering; try again shortly/],
    [new ReplyOutcomeUnknownError('rev_1', 'timeout'), /may or may not have been posted; check/],
    [
      new InvalidInputError('userId', 'User id must be a Discord snowflake (17–20 digits).'),
      /must be a Discord snowflake/,
    ],
    [new UserFacingError('Only moderators can reply.'), /Only moderators can reply/],
  ])('gives %p its own message without a reference id', (error, text) => {
    const message = toUserMessage(error);
    expect(message.description).toMatch(text);
    expect(message.referenceId).toBeUndefined();
  });

  it('hides an unexpected error behind a generic text with a reference id', () => {
    const message = toUserMessage(
      new TypeError('Cannot read properties of undefined (reading "x") at secret-path.ts:12'),
    );
    expect(message.description).toMatch(/^Something went wrong/);
    expect(message.description).not.toContain('secret-path');
    expect(message.referenceId).toMatch(/^[0-9A-F]{8}$/);
    expect(message.description).toContain(message.referenceId);
  });

  it('treats an invalid service response as unexpected', () => {
    expect(toUserMessage(new InvalidResponseError('rating out of range')).referenceId).toBeDefined();
  });

  it('gives each unexpected failure its own reference id', () => {
    expect(toUserMessage(new Error('a')).referenceId).not.toBe(toUserMessage(new Error('a')).referenceId);
  });
});
