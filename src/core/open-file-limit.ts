import { readFileSync } from 'node:fs';

/**
 * This process's soft open-file limit (`ulimit -n`), from Linux's /proc/self/limits; undefined where
 * there is no such file (macOS, Windows) or the limit reads "unlimited".
 */
export function softOpenFileLimit(read = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  let text: string;
  try {
    text = read();
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\d+)\s/m.exec(text)?.[1];
  return soft === undefined ? undefined : Number(soft);
}
