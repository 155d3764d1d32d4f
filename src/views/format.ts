import { TimestampStyles, inlineCode, time, userMention } from 'discord.js';
import { isSnowflake } from '../api/index.js';
import type { Translator } from '../i18n/index.js';

const ELLIPSIS = '…';
const ZWSP = '\u200b';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `★★★★☆ 4/5`: the number is there for screen readers, which read the stars as symbols. */
export function stars(rating: number): string {
  const filled = filledStars(rating);
  return `${'★'.repeat(filled)}${'☆'.repeat(5 - filled)} ${ratingText(clampRating(rating))}/5`;
}

/** How many of the five stars a rating fills: 0 to 5, whatever a delivery sent. */
export function filledStars(rating: number): number {
  return Math.round(clampRating(rating));
}

/** `4`, `4.5`: one decimal at most, no Intl (its first formatter reads ICU's locale data: ~8 MB of RSS). */
const ratingText = (rating: number) => String(Math.round(rating * 10) / 10);

const clampRating = (rating: number) => (Number.isFinite(rating) ? Math.min(5, Math.max(0, rating)) : 0);

/** `<t:UNIX:R>`, shown by each client as "in 3 hours" in its own language. */
export function relativeTime(at: Date): string {
  return Number.isNaN(at.getTime()) ? 'unknown' : time(at, TimestampStyles.RelativeTime);
}

/** `<t:UNIX:f>`, shown by each client as a date and time in its own time zone. */
export function exactTime(at: Date): string {
  return Number.isNaN(at.getTime()) ? 'unknown' : time(at, TimestampStyles.ShortDateTime);
}

/** The moment `ms` after `now`: turns a service's "time left" into a point in time. */
export function timeAfter(now: Date, ms: number): Date {
  return new Date(now.getTime() + ms);
}

/**
 * Time left in words, rounded down so it never promises more than is left:
 * `2 d 3 h`, `9 h 58 min`, `12 min`, `less than a minute`.
 */
export function durationInWords(ms: number, { t }: Translator): string {
  if (!Number.isFinite(ms) || ms < MINUTE) return t('duration.underMinute');
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  if (days > 0) return hours > 0 ? t('duration.daysHours', { days, hours }) : t('duration.days', { days });
  if (hours > 0) return minutes > 0 ? t('duration.hoursMinutes', { hours, minutes }) : t('duration.hours', { hours });
  return t('duration.minutes', { minutes });
}

/**
 * Makes `@everyone`, `@here`, `<@…>`, `<@&…>`, `<#…>`, `</…>` and `<t:…>` show as text rather
 * than as mentions or timestamps. allowedMentions already stops pings; this stops text that
 * merely looks like one.
 */
export function neutraliseMentions(text: string): string {
  return text.replace(/@(everyone|here)/gi, `@${ZWSP}$1`).replace(/<([@#/]|t:)/g, `<${ZWSP}$1`);
}

/** Discord's own autolink pattern: markdown inside a link is not rendered, so it is left alone. */
const LINK = /https?:\/\/[^\s<]+[^<.,:;"')\]\s]/g;
/** Characters that start inline markdown: emphasis, strike, spoiler, code, masked links, escapes. */
const INLINE_MARKDOWN = /[\\*_~|`[\]]/g;

function escapeInline(text: string): string {
  let out = '';
  let last = 0;
  for (const link of text.matchAll(LINK)) {
    out += text.slice(last, link.index).replace(INLINE_MARKDOWN, '\\$&') + link[0];
    last = link.index + link[0].length;
  }
  return out + text.slice(last).replace(INLINE_MARKDOWN, '\\$&');
}

/**
 * Shows user-written text exactly as typed: every inline markdown character outside links is
 * backslash-escaped, line starts that would make headings, subtext, quotes or lists are escaped,
 * and mention-like text is neutralised. (discord.js's escapeMarkdown leaves one `*` unescaped in
 * runs such as `****`, which can still turn text italic, so it is not used here.)
 */
export function escapeUserText(text: string): string {
  const escaped = escapeInline(text)
    .replace(/^(\s*)(#{1,3}\s|-#\s|>|[-+]\s)/gm, '$1\\$2')
    .replace(/^(\s*\d+)\.(\s)/gm, '$1\\.$2');
  return neutraliseMentions(escaped);
}

/** Cuts to at most `max` UTF-16 units, never between the halves of a surrogate pair. */
function cut(text: string, max: number): string {
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** Plain (bot-written) text shortened to `max` characters, ellipsis included. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${cut(text, max - 1).trimEnd()}${ELLIPSIS}`;
}

/**
 * Invisible format characters (Unicode Cf): bidirectional embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069), marks, zero-width spaces, tags. They would draw the text after
 * them mirrored or hide part of it. Kept: the zero-width joiner and non-joiner, which emoji
 * sequences and some scripts need, and the tags of a subdivision flag (🏴 + tags + cancel tag).
 */
const FORMAT_CHARACTERS = /(\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F})|[\u200c\u200d]|\p{Cf}/gu;

/** Text as it will be drawn: every invisible format character removed, save the ones above. */
export function displayable(text: string): string {
  return text.replace(FORMAT_CHARACTERS, (match, flag: string | undefined) =>
    flag !== undefined || match === '\u200c' || match === '\u200d' ? match : '',
  );
}

/**
 * User-written text, escaped, and at most `max` characters once escaped (ellipsis included).
 * Cutting happens before escaping, so no escape sequence is ever split in two, and only what can
 * be shown is ever escaped: escaping never shortens text, so nothing past the first `max`
 * characters can appear, and a 50 MB review costs what its first few thousand characters cost.
 */
export function safeText(text: string, max = Number.POSITIVE_INFINITY): string {
  const prefix = Number.isFinite(max) ? cut(text, max + 1) : text;
  const shown = displayable(prefix);
  const full = escapeUserText(shown);
  if (prefix.length === text.length && full.length <= max) return full;
  let lo = 0;
  let hi = Math.min(shown.length, max);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (escapeUserText(cut(shown, mid)).length + ELLIPSIS.length <= max) lo = mid;
    else hi = mid - 1;
  }
  return `${escapeUserText(cut(shown, lo)).trimEnd()}${ELLIPSIS}`;
}

/** Each line prefixed with `> `; pass text that is already escaped. */
export function blockQuote(escaped: string): string {
  return escaped
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** `<@id>` for a real user id; anything else is shown as escaped text, never as a mention. */
export function mention(userId: string): string {
  return isSnowflake(userId) ? userMention(userId) : safeText(userId, 40);
}

/** Discord caps display names at 32 characters; anything longer is not a name Discord gave. */
const NAME_MAX = 32;

/**
 * `<@id> (Name)`: a client that has not loaded the member draws the mention as a raw id, so the
 * display name stands beside it, escaped like all user text. Without a name, the mention alone.
 */
export function mentionWithName(userId: string, name: string | undefined): string {
  return name === undefined ? mention(userId) : `${mention(userId)} (${safeText(name, NAME_MAX)})`;
}

/** An id from the service, in inline code when it is safe there, else escaped. */
export function idText(id: string): string {
  return /^[\w.:-]{1,100}$/.test(id) ? inlineCode(id) : safeText(id, 100);
}

/** Links in service text: any scheme followed by `://`, and Discord's masked `[label](url)` form. */
const ANY_LINK = /\[[^\]\n]*\]\([^)\n]*\)|\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

/**
 * Text the service wrote (its refusal of a reply, say), made safe to show: the given secrets
 * (and their JSON-escaped forms) removed, links replaced (a service must not hand members a
 * clickable link), invisible characters out, markdown escaped, at most `max` characters.
 */
export function serviceText(text: string, secrets: readonly string[], max = 200): string {
  let clean = cut(text, 4 * max);
  for (const secret of secrets.filter((s) => s.length >= 4)) {
    for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1)]))
      clean = clean.split(form).join('[redacted]');
  }
  return safeText(clean.replace(ANY_LINK, '(link removed)'), max);
}

/**
 * An id the service made up for something it created (a reply): shown only when it looks like an
 * id, since a service that sends anything else there is not to be quoted.
 */
export function serviceIdText(id: string, { t }: Translator): string {
  return isIdLike(id) ? inlineCode(id) : t('common.notAnId');
}

/** Letters, digits and `_ . : -`, at most 100: what an id looks like, and safe in inline code. */
export function isIdLike(id: string): boolean {
  return /^[\w.:-]{1,100}$/.test(id);
}

export function yesNo(value: boolean, { t }: Translator): string {
  return value ? t('common.yes') : t('common.no');
}
