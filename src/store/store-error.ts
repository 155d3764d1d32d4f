import { EXIT_FAILURE } from '../core/exit-codes.js';

/**
 * A store failure told so an operator can act on it: which store (naming DATABASE_URL), the real
 * cause, and the fix. A start that fails on one exits with its `exitCode`: EXIT_CONFIG when only the
 * operator can mend it, EXIT_FAILURE when trying again later may work.
 */
export class StoreError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** SQLite's or the server's own words for a failure, without a trailing full stop. */
export function causeText(error: unknown): string {
  const own = (error as { message?: unknown } | null)?.message;
  const message = typeof own === 'string' && own !== '' ? own : String(error);
  return message.replace(/\.$/, '');
}
