import { readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { SETTINGS } from './settings.js';

/** Names a .env may hold for Node or the shell rather than the bot: never reported. */
const NOT_THE_BOTS = new Set([
  'DOTENV_CONFIG_PATH',
  'NODE_ENV',
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
  'TZ',
  'UV_THREADPOOL_SIZE',
]);

/** A name in the settings file that no setting has, with the setting it most likely meant. */
export interface UnknownSetting {
  name: string;
  nearest?: string;
}

/**
 * The names that are no setting of the bot's, each with the nearest setting's name when one is
 * close (a typo: VOTE_CHANEL_ID for VOTE_CHANNEL_ID). Such a setting is silently unset otherwise.
 */
export function unknownSettings(
  names: Iterable<string>,
  known: readonly string[] = Object.keys(SETTINGS),
): UnknownSetting[] {
  const settings = new Set(known);
  const unknown: UnknownSetting[] = [];
  for (const name of names) {
    if (settings.has(name) || NOT_THE_BOTS.has(name)) continue;
    const nearest = nearestName(name, known);
    unknown.push(nearest === undefined ? { name } : { name, nearest });
  }
  return unknown;
}

/** The unknown names in the settings file the process reads (.env, or DOTENV_CONFIG_PATH's); none without one. */
export function unknownSettingsInFile(path = process.env.DOTENV_CONFIG_PATH || '.env'): UnknownSetting[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return unknownSettings(Object.keys(parse(text)));
}

/** The one line a start or the doctor gives an unknown name. */
export function unknownSettingText({ name, nearest }: UnknownSetting): string {
  return nearest === undefined
    ? `${name} is no setting of the bot's and is ignored (docs/configuration.md lists them)`
    : `${name} is no setting of the bot's and is ignored: did you mean ${nearest}?`;
}

/** The closest name within a few edits (at most a third of the name's length), if exactly one is closest. */
function nearestName(name: string, known: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  let tie = false;
  for (const candidate of known) {
    if (Math.abs(candidate.length - name.length) > limit) continue;
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) [best, bestDistance, tie] = [candidate, distance, false];
    else if (distance === bestDistance) tie = true;
  }
  return tie ? undefined : best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
