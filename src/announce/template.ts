import { MESSAGE_CONTENT_MAX } from '../core/discord-limits.js';
import { english, type Translator } from '../i18n/index.js';
import {
  displayable,
  mention,
  nameText,
  neutraliseMentions,
  safeText,
  showsNothing,
  truncate,
} from '../core/discord-text.js';

/** What a template may name, in the order the docs and the refusal list them. */
export const PLACEHOLDERS = [
  'user',
  'name',
  'votes_month',
  'votes_total',
  'streak',
  'server',
  'double',
  'site',
  'sites_today',
] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];

/** The longest template an admin may type (the slash option's limit too). */
export const TEMPLATE_MAX = 500;

const NAME_SHOWN_MAX = 64;
const SERVER_SHOWN_MAX = 200;
const DOUBLE_SHOWN_MAX = 40;
/** A list's name comes from the bot's own table of lists (src/lists), never from a delivery. */
const SITE_SHOWN_MAX = 40;
/** `{site}` of a vote whose list is not given: Guilds' name as src/lists/guilds.ts has it (a test holds them equal). */
export const GUILDS_NAME = 'Guilds';
/** The most each placeholder can become, so a template is refused before it could ever be too long. */
const PLACEHOLDER_MAX: Record<Placeholder, number> = {
  user: '<@>'.length + 20,
  name: NAME_SHOWN_MAX,
  votes_month: 15,
  votes_total: 15,
  streak: 15,
  server: SERVER_SHOWN_MAX,
  double: DOUBLE_SHOWN_MAX,
  site: SITE_SHOWN_MAX,
  sites_today: 15,
};

const PLACEHOLDER = /\{(\w+)\}/g;
const known = new Set<string>(PLACEHOLDERS);

export type TemplateCheck =
  | { ok: true; template: string }
  | { ok: false; problem: 'empty' }
  | { ok: false; problem: 'tooLong'; max: number }
  | { ok: false; problem: 'unknown'; unknown: string[] };

/** The template as it will be stored (trimmed), or why it is refused. */
export function checkTemplate(text: string): TemplateCheck {
  const template = text.trim();
  const unknown = [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((n) => !known.has(n)))];
  if (unknown.length > 0) return { ok: false, problem: 'unknown', unknown };
  if (template.length > TEMPLATE_MAX || worstCaseLength(template) > MESSAGE_CONTENT_MAX)
    return { ok: false, problem: 'tooLong', max: TEMPLATE_MAX };
  // Judged on what displays: zero-width and bidirectional characters, spaces and {double} (empty for a
  // single vote) would post an empty message, which Discord refuses, and the vote would go unannounced.
  if (showsNothing(renderTemplate(template, SAMPLE_VOTE, english))) return { ok: false, problem: 'empty' };
  // One rendering always fits one message (checked above), so a batch never has to drop a voter.
  return { ok: true, template };
}

/** A single vote: every placeholder shows something except {double}, the one that can render empty. */
const SAMPLE_VOTE: TemplateValues = {
  userId: '100000000000000000',
  name: 'Ada',
  monthVotes: 1,
  totalVotes: 1,
  streak: 1,
  server: 'Server',
  double: false,
  siteName: 'Guilds',
  listsToday: 1,
};

/** The longest text the template can render to, whatever the names and numbers are. */
export function worstCaseLength(template: string): number {
  let length = 0;
  for (const part of split(template))
    // Two more per placeholder: text that looks like a mention across its edges gains a zero-width space.
    length += typeof part === 'string' ? adminText(part).length : PLACEHOLDER_MAX[part.name] + 2;
  return length;
}

/** Whether the template shows the voter's mention (the only mention that may ever ping). */
export function mentionsVoter(template: string): boolean {
  return split(template).some((part) => typeof part !== 'string' && part.name === 'user');
}

export interface TemplateValues {
  userId: string;
  /** The display name, when known; else the mention stands in. */
  name: string | undefined;
  monthVotes: number;
  totalVotes: number;
  streak: number;
  server: string;
  double: boolean;
  /** The name of the list the vote was cast on; undefined: Guilds. */
  siteName?: string | undefined;
  /** How many lists the member voted on in the 24 hours up to this vote, this one's included; undefined: 1. */
  listsToday?: number | undefined;
}

/**
 * The template with its placeholders filled: the admin's own text keeps its markdown but loses
 * anything that looks like a mention (`@everyone`, `<@&role>`, `<@someone>`), names are escaped
 * like all member-written text, so the only mention in the result is the voter's own `{user}`.
 */
export function renderTemplate(template: string, values: TemplateValues, i18n: Translator): string {
  const text = split(template)
    .map((part) => (typeof part === 'string' ? adminText(part) : fill(part.name, values, i18n)))
    .join('');
  // Neutralised once more as a whole: "@" typed before {server} must not make "@everyone" with its name.
  return neutraliseMentions(text).replaceAll(VOTER, mention(values.userId)).trim();
}

/** Stands for the voter's mention until the rest is neutralised; the admin's text cannot hold it. */
const VOTER = '\u0000voter\u0000';

function fill(name: Placeholder, values: TemplateValues, i18n: Translator): string {
  switch (name) {
    case 'user':
      return VOTER;
    case 'name':
      return values.name === undefined ? VOTER : nameText(values.name, NAME_SHOWN_MAX);
    case 'votes_month':
      return i18n.number(values.monthVotes);
    case 'votes_total':
      return i18n.number(values.totalVotes);
    case 'streak':
      return i18n.number(values.streak);
    case 'server':
      return safeText(values.server, SERVER_SHOWN_MAX);
    case 'double':
      return values.double ? truncate(i18n.t('announce.double'), DOUBLE_SHOWN_MAX) : '';
    case 'site':
      return safeText(values.siteName ?? GUILDS_NAME, SITE_SHOWN_MAX);
    case 'sites_today':
      return i18n.number(values.listsToday ?? 1);
  }
}

function adminText(text: string): string {
  return neutraliseMentions(displayable(text).replaceAll('\u0000', ''));
}

type Part = string | { name: Placeholder };

/** Text and known placeholders in order; an unknown `{word}` (refused when stored) stays text. */
function split(template: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (!known.has(match[1]!)) continue;
    if (match.index > last) parts.push(template.slice(last, match.index));
    parts.push({ name: match[1] as Placeholder });
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  return parts;
}
