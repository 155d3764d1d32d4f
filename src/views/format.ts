import { cut, discordTime, inlineCode, safeText } from '../core/discord-text.js';
import type { Translator } from '../i18n/index.js';

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
  return Number.isNaN(at.getTime()) ? 'unknown' : discordTime(at, 'R');
}

/** `<t:UNIX:f>`, shown by each client as a date and time in its own time zone. */
export function exactTime(at: Date): string {
  return Number.isNaN(at.getTime()) ? 'unknown' : discordTime(at, 'f');
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

/** `2026-11-26 10:41 UTC`: a moment every language reads the same (the dashboard's pages, the doctor). */
export function utcText(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
