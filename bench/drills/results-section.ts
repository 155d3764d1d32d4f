import { readFileSync } from 'node:fs';

/** RESULTS.md's part written by `npm run bench:drills`; `npm run bench` keeps it when it rewrites the rest. */
export const DRILLS_SECTION = '## Fault drills (full size)';

/** `text` with its drills section replaced by `section` (or added at the end). */
export function withDrillsSection(text: string, section: string): string {
  const at = text.indexOf(DRILLS_SECTION);
  if (at === -1) return `${text.trimEnd()}\n\n${section}`;
  const next = text.indexOf('\n## ', at + DRILLS_SECTION.length);
  return `${text.slice(0, at)}${section}${next === -1 ? '' : text.slice(next)}`;
}

/** The drills section of the file now, if it has one. */
export function currentDrillsSection(file: URL): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const at = text.indexOf(DRILLS_SECTION);
  if (at === -1) return undefined;
  const next = text.indexOf('\n## ', at + DRILLS_SECTION.length);
  return text.slice(at, next === -1 ? undefined : next + 1);
}
