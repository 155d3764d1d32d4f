/**
 * HTML built from text: every value put into a page is escaped unless it is already `Html`, so a
 * review's or a member's text can never become markup. The one place the dashboard writes markup.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A value in a page: markup kept, lists joined, nothing for null, undefined and false, the rest escaped. */
type Part = Html | string | number | bigint | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map((p: Part) => render(p)).join('');
  if (part === null || part === undefined || part === false) return '';
  return escapeHtml(String(part as string | number | bigint | boolean));
}

/** `html\`<p>${text}</p>\``: the literal parts as written, every value escaped. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => (out += render(value) + strings[i + 1]!));
  return new Html(out);
}
