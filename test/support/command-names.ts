import { readdirSync } from 'node:fs';

/**
 * The slash commands the bot defines, from the files in commands/ (one file per command, named for
 * it), sorted: tests compare against this instead of a list typed by hand.
 */
export function commandNames(): string[] {
  return readdirSync(new URL('../../commands/', import.meta.url))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.slice(0, -'.ts'.length))
    .sort();
}
