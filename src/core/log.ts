import { createRequire } from 'node:module';
import { pino, stdSerializers, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** `/interactions/{id}/{token}` and `/webhooks/{id}/{token}`: the token is a 15-minute credential. */
const TOKEN_IN_URL = /(\/(?:interactions|webhooks)\/\d+\/)[^/?#\s"\\]+/g;

/**
 * JSON lines on stdout, one per event, for a host's log collector. Secrets are kept out three
 * ways: known secret fields are censored by path; errors lose the request body discord.js attaches
 * (it holds whatever was being sent); and as a last line of defence every written line is scrubbed
 * of interaction and webhook tokens in URLs and of the secret values themselves, as written and
 * as JSON escapes them (a library error may quote a header or URL).
 * `time` is ISO 8601 so a person can read a raw line. LOG_FORMAT=pretty writes the same lines
 * coloured for a terminal, through the same scrub (the hook runs before any stream).
 * `destination` is for tests; the bot writes to stdout in batches of 4 KB, each line at most 100 ms
 * after it was logged (one write per line was a syscall per /vote), and pino writes what is left
 * synchronously when the process exits (a SIGKILL loses at most those 100 ms).
 */
export function createLogger(
  level: LogLevel,
  secrets: readonly string[] = [],
  destination?: DestinationStream,
  format: LogFormat = 'json',
): Logger {
  const forms = [...new Set(secrets.filter((s) => s.length >= 4).flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))];
  const options = {
    level,
    base: { pid: process.pid },
    timestamp: stdTimeFunctions.isoTime,
    // Secret fields by name, where pino's `redact` would clone every logged object to look.
    formatters: { log: withoutSecretFields },
    serializers: { err: withoutRequestBody },
    hooks: {
      streamWrite: (line: string) => scrubbed(line, forms),
    },
  };
  if (format === 'pretty') return pino(options, prettyStream(destination));
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 }));
}

/**
 * Writes what the logger holds before it returns, for a line the process may not outlive: a second
 * stop signal ends it at once, and pino's own flush only starts an asynchronous write, which a busy
 * machine may not have done by then.
 */
export function flushLogNow(logger: Logger): void {
  const stream = (logger as unknown as Record<symbol, { flushSync?: () => void } | undefined>)[pino.symbols.streamSym];
  try {
    if (typeof stream?.flushSync === 'function') return stream.flushSync();
  } catch {
    // Not ready or already closed: the asynchronous flush below is the best left.
  }
  logger.flush();
}

/** A line with the secrets and URL tokens in it replaced; copied only when it holds one (most hold none). */
function scrubbed(line: string, forms: readonly string[]): string {
  let out = line;
  for (const secret of forms) if (out.includes(secret)) out = out.split(secret).join(CENSORED);
  return out.includes('/interactions/') || out.includes('/webhooks/')
    ? out.replace(TOKEN_IN_URL, `$1${CENSORED}`)
    : out;
}

/** Loaded only when asked for, so the JSON path never pays for pino-pretty. */
function prettyStream(destination: DestinationStream | undefined): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (options: object) => DestinationStream;
  return pretty({
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    ...(destination ? { destination, colorize: false } : {}),
  });
}

const SECRET_FIELDS = new Set(['token', 'apiKey', 'appId']);
const CENSORED = '[redacted]';

/**
 * `token`, `apiKey`, `appId` and `headers.authorization`, at the top of a logged object or one level
 * down, read `[redacted]`. The object is copied only when it holds one, and the caller's is never changed.
 */
function withoutSecretFields(object: Record<string, unknown>): Record<string, unknown> {
  return censored(object, oneLevelDown);
}

const oneLevelDown = (value: unknown): unknown => (isPlainObject(value) ? censored(value, asItIs) : value);
const asItIs = (value: unknown): unknown => value;

/** `object` with its secret fields censored, copied only when one is there; `deeper` treats the other values. */
function censored(object: Record<string, unknown>, deeper: (value: unknown) => unknown): Record<string, unknown> {
  let out = object;
  for (const key in object) {
    const value = object[key];
    const shown = SECRET_FIELDS.has(key) ? CENSORED : key === 'headers' ? withoutAuthorization(value) : deeper(value);
    if (shown !== value) {
      if (out === object) out = { ...object };
      out[key] = shown;
    }
  }
  return out;
}

function withoutAuthorization(headers: unknown): unknown {
  if (!isPlainObject(headers) || !('authorization' in headers)) return headers;
  return { ...headers, authorization: CENSORED };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** pino's error serializer, minus discord.js's `requestBody` (the message or form being sent). */
function withoutRequestBody(error: Error): Record<string, unknown> {
  const serialized = stdSerializers.err(error) as unknown as Record<string, unknown>;
  delete serialized.requestBody;
  return serialized;
}
