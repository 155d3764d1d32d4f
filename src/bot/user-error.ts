/**
 * A refusal the user should read as it is (not a moderator, wrong guild, bad button): the text says
 * what went wrong and what to do. Anything else thrown by a handler is an internal failure.
 */
export class UserFacingError extends Error {
  constructor(
    message: string,
    readonly title = 'Not possible',
  ) {
    super(message);
    this.name = 'UserFacingError';
  }
}
