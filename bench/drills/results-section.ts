import { readFileSync } from 'node:fs';

/** RESULTS.md's part written by `npm run bench:drills`; `npm run bench` keeps it when it rewrites the rest. */
export const DRILLS_SECTION = '## Fault drills (full size)';
/** RESULTS.md's part about the opt-in scale run (`--servers`), written by hand from its output; kept the same way. */
export const SCALE_RUN_SECTION = '## Scale beyond the default run';

/** `text` with its section under `heading` (the drills' unless told) replaced by `section`, or added at the end. */
export function withDrillsSection(text: string, section: string, heading = DRILLS_SECTION): string {
  const at = text.indexOf(heading);
  if (at === -1) return `${text.trimEnd()}\n\n${section}`;
  const next = text.indexOf('\n## ', at + heading.length);
  return `${text.slice(0, at)}${section}${next === -1 ? '' : text.slice(next)}`;
}

/** The file's section under `heading` (the drills' unless told) now, if it has one. */
export function currentDrillsSection(file: URL, heading = DRILLS_SECTION): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const at = text.indexOf(heading);
  if (at === -1) return undefined;
  const next = text.indexOf('\n## ', at + heading.length);
  return text.slice(at, next === -1 ? undefined : next + 1);
}

/** A new RESULTS.md `text` with the sections other commands wrote in `file` kept: the opt-in scale run's, the drills'. */
export function withKeptSections(text: string, file: URL): string {
  let kept = text;
  for (const heading of [SCALE_RUN_SECTION, DRILLS_SECTION]) {
    const section = currentDrillsSection(file, heading);
    if (section !== undefined) kept = withDrillsSection(kept, section, heading);
  }
  return kept;
}
