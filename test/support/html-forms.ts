/** The forms of a rendered page, each as its opening tag and its body, to check what every one carries. */
export function formsOf(page: string): Array<{ tag: string; body: string }> {
  return [...page.matchAll(/(<form\b[^>]*>)([\s\S]*?)<\/form>/g)].map((m) => ({ tag: m[1]!, body: m[2]! }));
}

/** Every form posts, to a path of the server's pages, with the CSRF token as a hidden field. */
export function expectEveryFormGuarded(page: string, guildId: string, csrf: string): number {
  const forms = formsOf(page);
  for (const { tag, body } of forms) {
    if (!/method="post"/.test(tag)) throw new Error(`a form that does not POST: ${tag}`);
    if (!tag.includes(`action="/servers/${guildId}/`)) throw new Error(`a form posting elsewhere: ${tag}`);
    if (!body.includes(`<input type="hidden" name="_csrf" value="${csrf}" />`))
      throw new Error(`a form without its CSRF field: ${tag}`);
  }
  // A page whose forms were dropped would pass the loop: the count is asserted by each test.
  return forms.length;
}

export const HOSTILE = '<script>alert(1)</script>';
export const HOSTILE_ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;';

/** The page with each run of white space as one space: the formatter lays markup out freely. */
export const flat = (page: string): string => page.replace(/\s+/g, ' ').replace(/ >/g, '>');
