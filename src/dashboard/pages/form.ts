import { csrfField } from '../csrf.js';
import { html, type Html } from '../html.js';
import { utcText } from '../../views/format.js';

/** The pages of one server, each under `/servers/{guild id}/`; every form posts to its own page. */
export const PAGES = {
  listings: 'listings',
  channels: 'channels',
  announcements: 'announcements',
  announcementsPreview: 'announcements/preview',
  rewards: 'rewards',
  reviews: 'reviews',
  deliveries: 'deliveries',
  stats: 'stats',
  statsPicture: 'stats.png',
} as const;
export type PagePath = (typeof PAGES)[keyof typeof PAGES];

/**
 * The one rule for a server's addresses, `/servers/{guild id}{path}`: the id is a snowflake, encoded
 * all the same so it can never leave its path segment.
 */
export const serverPath = (guildId: string, path = ''): string => `/servers/${encodeURIComponent(guildId)}${path}`;

/** `/servers/{guild id}/{page}`, by that one rule. */
export const pagePath = (guildId: string, page: PagePath): string => serverPath(guildId, `/${page}`);

export interface FormTarget {
  guildId: string;
  csrf: string;
}

/** A POST form to one of the server's pages, with the session's form token first (csrf.ts). */
export function postForm({ guildId, csrf }: FormTarget, page: PagePath, body: Html, className = 'form'): Html {
  return html`<form method="post" action="${pagePath(guildId, page)}" class="${className}">
    ${csrfField(csrf)}${body}
  </form>`;
}

/** A moment as a machine-readable `<time>` and a UTC text every language reads; `none` when it never happened. */
export function moment(at: number | null, none: string): Html | string {
  if (at === null || !Number.isFinite(at)) return none;
  return html`<time datetime="${new Date(at).toISOString()}">${utcText(at)}</time>`;
}

/** A `<select>` of choices, the current one selected; `empty` adds a first choice with no value (off). */
export function picker(
  name: string,
  choices: ReadonlyArray<{ value: string; label: string }>,
  current: string | undefined,
  options: { id?: string; empty?: string } = {},
): Html {
  const empty = options.empty === undefined ? null : html`<option value="">${options.empty}</option>`;
  const items = choices.map(
    (c) => html`<option value="${c.value}" ${c.value === current ? html` selected` : null}>${c.label}</option>`,
  );
  return html`<select name="${name}" ${options.id ? html` id="${options.id}"` : null}>
    ${empty}${items}
  </select>`;
}

/** A list of problems to fix, or nothing when there are none. */
export function problemList(problems: readonly string[]): Html | null {
  if (problems.length === 0) return null;
  return html`<ul class="problems">
    ${problems.map((p) => html`<li>✘ ${p}</li>`)}
  </ul>`;
}

export interface TextareaAttributes {
  id: string;
  name: string;
  rows: number;
  maxlength: number;
  minlength?: number;
  required?: boolean;
}

/** A textarea holding `value` exactly: its text starts right after the tag, so no layout white space gets into it. */
export function textarea(a: TextareaAttributes, value: string): Html {
  const min = a.minlength === undefined ? null : html` minlength="${a.minlength}"`;
  const required = a.required ? html` required` : null;
  // prettier-ignore
  return html`<textarea id="${a.id}" name="${a.name}" rows="${a.rows}" maxlength="${a.maxlength}"${min}${required}>${value}</textarea>`;
}
