import { DISPLAY_NAME_MAX } from './discord-limits.js';
import { isSnowflake } from './snowflake.js';

// Discord's text rules: how user-written text is shown as typed, never as markdown or a mention.
const ELLIPSIS = '…';
const ZWSP = '\u200b';

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
export function escapeUserText(text: string, links: Links = 'kept'): string {
  const inline = links === 'kept' ? escapeInline(text) : text.replace(INLINE_MARKDOWN, '\\$&');
  const escaped = inline.replace(/^(\s*)(#{1,3}\s|-#\s|>|[-+]\s)/gm, '$1\\$2').replace(/^(\s*\d+)\.(\s)/gm, '$1\\.$2');
  const shown = neutraliseMentions(escaped);
  // A zero-width space after the scheme's colon: Discord links only an unbroken `https://`.
  return links === 'kept' ? shown : shown.replace(/:\/\//g, `:${ZWSP}//`);
}

/**
 * What user text does with its links: 'kept' (a review, a reply: the member wrote them to be
 * followed) or 'broken' (a name: a label, never a link, since a list's delivery can set it to anything).
 */
export type Links = 'kept' | 'broken';

/** Cuts to at most `max` UTF-16 units, never between the halves of a surrogate pair. */
export function cut(text: string, max: number): string {
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
 * What draws nothing: format characters (Cf: zero-width spaces, joiners, bidirectional marks), spaces
 * (Zs), controls (Cc), the other default-ignorable code points (Hangul fillers, variation selectors)
 * and the blank Braille pattern, which clients draw as empty space.
 */
const INVISIBLE = /[\p{Cf}\p{Zs}\p{Cc}\p{Default_Ignorable_Code_Point}\s\u2800]/gu;

/** True when the text would show nothing at all: Discord refuses such a message (400), or it looks blank. */
export function showsNothing(text: string): boolean {
  return text.replace(INVISIBLE, '') === '';
}

/**
 * User-written text, escaped, and at most `max` characters once escaped (ellipsis included).
 * Cutting happens before escaping, so no escape sequence is ever split in two, and only what can
 * be shown is ever escaped: escaping never shortens text, so nothing past the first `max`
 * characters can appear, and a 50 MB review costs what its first few thousand characters cost.
 */
export function safeText(text: string, max = Number.POSITIVE_INFINITY, links: Links = 'kept'): string {
  const prefix = Number.isFinite(max) ? cut(text, max + 1) : text;
  const shown = displayable(prefix);
  const full = escapeUserText(shown, links);
  if (prefix.length === text.length && full.length <= max) return full;
  let lo = 0;
  let hi = Math.min(shown.length, max);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (escapeUserText(cut(shown, mid), links).length + ELLIPSIS.length <= max) lo = mid;
    else hi = mid - 1;
  }
  return `${escapeUserText(cut(shown, lo), links).trimEnd()}${ELLIPSIS}`;
}

/** Each line prefixed with `> `; pass text that is already escaped. */
export function blockQuote(escaped: string): string {
  return escaped
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

// Discord's markup, written here rather than taken from discord.js: a view stays a plain function of
// its data, which a test loads without the client library (docs/development.md, keeping the tests fast).
export const roleMention = (roleId: string): string => `<@&${roleId}>`;
export const channelMention = (channelId: string): string => `<#${channelId}>`;
export const inlineCode = (text: string): string => `\`${text}\``;

/** `<t:UNIX:style>`, which each client draws in its own language and zone: R "in 3 hours", f a short date and time, D a long date. */
export function discordTime(at: Date, style: 'R' | 'f' | 'D'): string {
  return `<t:${Math.floor(at.getTime() / 1000)}:${style}>`;
}

/** `<@id>` for a real user id; anything else is shown as escaped text, never as a mention. */
export function mention(userId: string): string {
  return isSnowflake(userId) ? `<@${userId}>` : safeText(userId, 40);
}

/**
 * `<@id> (Name)`: a client that has not loaded the member draws the mention as a raw id, so the
 * display name stands beside it, escaped like all user text. Without a name, the mention alone.
 */
export function mentionWithName(userId: string, name: string | undefined): string {
  return name === undefined ? mention(userId) : `${mention(userId)} (${nameText(name, DISPLAY_NAME_MAX)})`;
}

/** A member's name as a label: escaped like all user text, and never a link, whoever set it. */
export function nameText(name: string, max: number): string {
  return safeText(name, max, 'broken');
}
