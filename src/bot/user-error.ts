import { english, type NoticeKey, type Vars } from '../i18n/index.js';

/**
 * A refusal the user should read as it is (not a moderator, wrong guild, bad button): the notice
 * says what went wrong and what to do, in the member's language when it is shown. Anything else
 * thrown by a handler is an internal failure.
 */
export class UserFacingError extends Error {
  constructor(
    readonly key: NoticeKey,
    readonly vars?: Vars,
  ) {
    // The English text is the error's message, for logs.
    super(english.t(`${key}.text`, vars));
    this.name = 'UserFacingError';
  }
}
