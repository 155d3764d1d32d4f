import type { AddressInfo, Server } from 'node:net';
import { EXIT_CONFIG, FatalStartError } from './exit-codes.js';

/**
 * A port this process could not have, told as the start failure's one line: the setting to change.
 * EXIT_CONFIG: a port held by another process or refused to this user stays so, and a supervisor
 * restarting the bot every few seconds would only fill the log.
 */
export class ListenError extends FatalStartError {
  constructor(
    message: string,
    /** Node's reason, such as EADDRINUSE or EACCES. */
    readonly code: string | undefined,
  ) {
    super(message, EXIT_CONFIG);
  }
}

/** Says what to change when the port cannot be had, given Node's reason (its code, such as EADDRINUSE). */
export type ListenAdvice = (reason: string) => string;

/**
 * Binds `server` to host:port (port 0 picks a free one) and resolves with the address it got.
 * A failure (EADDRINUSE, EACCES, EADDRNOTAVAIL…) rejects with Node's own error; given `advice`,
 * with a ListenError saying it, so that the process stops with one line naming the setting.
 */
export async function listen(
  server: Server,
  port: number,
  host: string | undefined,
  advice?: ListenAdvice,
): Promise<AddressInfo> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    if (!advice) throw error;
    const code = (error as { code?: string }).code;
    throw new ListenError(advice(code ?? (error as Error).message), code);
  }
  return server.address() as AddressInfo;
}

/** A host as a URL (or host:port) writes it: an IPv6 address in brackets. */
export function hostInUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
