import { DiscordjsErrorCodes, type Client } from 'discord.js';
import { EXIT_CONFIG, FatalStartError } from '../core/exit-codes.js';
import type { Logger } from '../core/log.js';

const ATTEMPTS = 5;

/**
 * Logs in, retrying while Discord cannot be reached (a host that starts before its network does),
 * but not when the token is refused: no retry fixes that.
 */
export async function connect(client: Client, token: string, apiUrl: string, logger: Logger): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.login(token);
      return;
    } catch (error) {
      if (isTokenRejected(error)) {
        throw new FatalStartError(
          'Discord rejected the bot token (DISCORD_TOKEN): reset it in the Developer Portal (Bot → Reset Token) and update .env.',
          EXIT_CONFIG,
        );
      }
      const reason = describeNetworkError(error);
      if (attempt >= ATTEMPTS) {
        throw new FatalStartError(
          `Could not reach Discord at ${apiUrl} after ${ATTEMPTS} attempts (${reason}): check the network or DISCORD_API_URL.`,
        );
      }
      const waitMs = Math.min(500 * 2 ** (attempt - 1), 5_000);
      logger.warn({ attempt, reason, waitMs }, 'could not reach Discord; retrying');
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

function isTokenRejected(error: unknown): boolean {
  const e = error as { code?: unknown; status?: unknown };
  return e.code === DiscordjsErrorCodes.TokenInvalid || e.status === 401;
}

function describeNetworkError(error: unknown): string {
  const e = error as { cause?: { code?: string }; code?: string; message?: string };
  return String(e.cause?.code ?? e.code ?? e.message ?? error);
}
