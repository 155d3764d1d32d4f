/**
 * Where to go after signing in: only a path on this site. `//evil.example` and `/\evil.example` are
 * read by browsers as another host, so anything but a plain absolute path becomes `/`.
 */
export function safeReturnPath(next: unknown): string {
  if (typeof next !== 'string' || next.length > 512) return '/';
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  // Control characters (a tab or newline inside `/\t/evil`) are dropped by URL parsers: refused too.
  if ([...next].some((c) => c < ' ' || c === '\u007f' || c === '\\')) return '/';
  return next;
}
