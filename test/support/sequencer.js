import { readFileSync } from 'node:fs';
import path from 'node:path';
import { URL } from 'node:url';
import Sequencer from '@jest/test-sequencer';

/** The files that take longest, slowest first (paths from the repository's root); the reporter says when one is missing. */
export const SLOW_FILES = new URL('./slow-files.txt', import.meta.url);

export function slowFiles() {
  return readFileSync(SLOW_FILES, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * Jest's order (files that failed last time first, then by the time each took, which only a machine
 * that ran them before knows), with the files named in slow-files.txt moved to the front: on a fresh
 * clone the slowest would otherwise start last and keep one worker busy after the others are done.
 */
export default class SlowFirst extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const rank = new Map(slowFiles().map((file, index) => [file, index]));
    const rankOf = (test) => rank.get(path.relative(test.context.config.rootDir, test.path)) ?? Infinity;
    // Array.prototype.sort is stable: the files not named keep Jest's order.
    return [...ordered].sort((a, b) => rankOf(a) - rankOf(b));
  }
}
