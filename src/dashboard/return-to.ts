/** A base to read a path against: whatever resolves to another origin is no path on this site. */
const HERE = 'http://dashboard.invalid';

/** The sealed cookie must stay under 4 KB, and non-ASCII characters grow ninefold when encoded. */
const MAX_LENGTH = 512;

/**
 * Where to go after signing in: only a path on this site, percent-encoded, else `/`. `//evil.example`
 * and `/\evil.example` are read by browsers as another host; a header must be ASCII (two raw U+2215
 * division slashes before `evil.example` made the Location header throw after the member was signed in).
 */
export function safeReturnPath(next: unknown): string {
  if (typeof next !== 'string' || next.length > MAX_LENGTH) return '/';
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  // Control characters (a tab or newline inside `/\t/evil`) are dropped by URL parsers: refused too.
  if ([...next].some((c) => c < ' ' || c === '\u007f' || c === '\\')) return '/';
  const url = new URL(next, HERE);
  const path = `${url.pathname}${url.search}`;
  // Dot segments are resolved here, so `/..//evil.example` would come out as `//evil.example`.
  if (url.origin !== HERE || path.startsWith('//') || path.length > MAX_LENGTH) return '/';
  return path;
}
