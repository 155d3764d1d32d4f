import type { Logger } from '../core/log.js';
import type { Poster } from './poster.js';

export interface AuditNotice {
  /** The server's audit channel; undefined when none is set, and then nothing is posted. */
  channelId: string | undefined;
  /** The REST message body (textBody or messageBody). */
  body: unknown;
  logger: Logger;
  /** The line logged, with the error and the audit channel's id, when the post fails. */
  failedLine: string;
  /** How loud a failed post is: warn for a notice that repeats a logged error, error when the post is the only record. */
  level?: 'warn' | 'error';
  /** More fields for the failure line (what the notice was about). */
  context?: Record<string, unknown>;
}

/**
 * Tells the audit channel, never failing the work it reports on: a failed post is logged and the
 * result is false. Whether to tell at all (once per refusal, once per reply) is the caller's.
 */
export async function tellAuditChannel(
  poster: Poster,
  { channelId, body, logger, failedLine, level = 'warn', context }: AuditNotice,
): Promise<boolean> {
  if (channelId === undefined) return false;
  return poster.audit(channelId, body, (err) => logger[level]({ err, channelId, ...context }, failedLine));
}
