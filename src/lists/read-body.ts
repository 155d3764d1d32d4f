import { boolean, describeIssues, objectReader, optional, Wrong, type Field, type Read } from '../core/read-shape.js';
import { isSnowflake } from '../core/snowflake.js';
import type { ListEvent, ReadContext, ReadResult } from './site.js';

/** The body as JSON, or the problem that it is not JSON. */
function parseBody(rawBody: Buffer): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(rawBody.toString('utf8')) as unknown };
  } catch {
    return { ok: false, problem: 'body: not JSON' };
  }
}

/** A site reader's answer: the event, or a short, value-free description of what was wrong. */
function toResult<S extends string>(read: Read<ListEvent<S>>): ReadResult<S> {
  return read.ok ? { ok: true, event: read.value } : { ok: false, problem: describeIssues(read.issues) };
}

/** Parses, then reads with `reader`: the one path every site's read() takes. */
export function readWith<S extends string>(
  rawBody: Buffer,
  reader: (value: unknown) => Read<ListEvent<S>>,
): ReadResult<S> {
  const parsed = parseBody(rawBody);
  return parsed.ok ? toResult(reader(parsed.value)) : parsed;
}

const NOT_A_SNOWFLAKE = new Wrong('expected a snowflake (17 to 20 digits)');
export const snowflake: Field<string> = (value) => (isSnowflake(value) ? value : NOT_A_SNOWFLAKE);

const NOT_A_TIME = new Wrong('expected an ISO 8601 time');
/** An ISO 8601 time, read as ms since the epoch. */
export const isoTime: Field<number> = (value) => {
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? ms : NOT_A_TIME;
};

/** When a vote without its own end ends: the listing's setting, else the site's default. */
export const untilFrom = (at: number, context: ReadContext, defaultMs: number): number =>
  at + (context.voteLengthMs ?? defaultMs);

/** Where a site that sends only ids puts them, and its test flag if it has one. */
export interface PlainVoteFields {
  guild: string;
  member: string;
  test?: string;
}

/**
 * The reader of a site whose body names only the server, the member and maybe a test: the vote is
 * cast on arrival and runs the listing's length (or the site's default).
 */
export function readPlainVote<S extends string>(
  site: S,
  fields: PlainVoteFields,
  defaultLengthMs: number,
): (rawBody: Buffer, context: ReadContext) => ReadResult<S> {
  return (rawBody, context) =>
    readWith(
      rawBody,
      objectReader((at) => {
        const guildId = at.field(fields.guild, snowflake);
        const memberId = at.field(fields.member, snowflake);
        const test = fields.test !== undefined && at.field(fields.test, optional(boolean)) === true;
        return at.done(() => ({
          site,
          kind: test ? 'test' : 'vote',
          guildId,
          memberId,
          at: context.now,
          until: test ? context.now : untilFrom(context.now, context, defaultLengthMs),
          weight: 1,
        }));
      }),
    );
}
