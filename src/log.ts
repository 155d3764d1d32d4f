import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

/**
 * JSON lines on stdout, one per event, for a host's log collector. Secrets are kept out twice:
 * known secret fields are censored by path, and as a last line of defence every written line is
 * scrubbed of the secret values themselves (a library error may quote a header or URL).
 */
export function createLogger(level: LogLevel, secrets: readonly string[] = []): Logger {
  const scrub = secrets.filter((s) => s.length >= 4);
  return pino({
    level,
    base: { pid: process.pid },
    redact: {
      paths: [
        'token',
        'apiKey',
        'appId',
        '*.token',
        '*.apiKey',
        '*.appId',
        'headers.authorization',
        '*.headers.authorization',
      ],
      censor: '[redacted]',
    },
    hooks: {
      streamWrite: (line) => scrub.reduce((out, secret) => out.split(secret).join('[redacted]'), line),
    },
  });
}
