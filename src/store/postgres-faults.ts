import { EXIT_CONFIG, EXIT_FAILURE } from '../core/exit-codes.js';
import { describeDatabase } from './database-url.js';
import { causeText, StoreError } from './store-error.js';

/**
 * A failure to reach or use PostgreSQL, told with DATABASE_URL (its password left out) and the fix.
 * EXIT_CONFIG when no retry can help: the login is refused, the database does not exist, TLS is
 * misconfigured. Anything else (refused connection, unknown host, a server starting or shutting
 * down) may pass: EXIT_FAILURE, and a standby waiting for the store retries it.
 */
export function postgresStoreError(error: unknown, url: string): StoreError {
  if (error instanceof StoreError) return error;
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const where = `PostgreSQL at ${describeDatabase({ kind: 'postgres', url })} (DATABASE_URL)`;
  const cause = `${causeText(error)}${code && !causeText(error).includes(code) ? ` (${code})` : ''}`;
  const make = (message: string, exitCode: number) => new StoreError(message, exitCode, { cause: error });
  // SQLSTATE class 28: invalid authorization (a wrong password, no pg_hba.conf entry).
  if (code?.startsWith('28'))
    return make(
      `${where} refused the login (${cause}): fix the user name or password in DATABASE_URL, or the server's pg_hba.conf.`,
      EXIT_CONFIG,
    );
  if (code === '3D000')
    return make(`${where}: ${cause}. Create the database, or name an existing one in DATABASE_URL.`, EXIT_CONFIG);
  if (code === undefined && /\bSSL\b/i.test(causeText(error)))
    return make(`${where}: ${cause}. Set sslmode in DATABASE_URL to what the server supports.`, EXIT_CONFIG);
  if (code === 'ECONNREFUSED')
    return make(
      `${where} does not answer (${cause}): start PostgreSQL, or fix the host and port in DATABASE_URL.`,
      EXIT_FAILURE,
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return make(`${where}: the host name does not resolve (${cause}); check the host in DATABASE_URL.`, EXIT_FAILURE);
  return make(`${where} failed: ${cause}.`, EXIT_FAILURE);
}
