import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Why a SQLite file not made yet could not be made by this user, or undefined when it could: the
 * bot makes every missing folder above it (mkdir -p) at its first start, so the nearest folder that
 * exists must be a folder, and one this user may write in.
 */
export function unmakeableReason(file: string): string | undefined {
  const missing: string[] = [];
  let nearest = path.dirname(path.resolve(file));
  while (!existsSync(nearest)) {
    missing.push(nearest);
    const parent = path.dirname(nearest);
    if (parent === nearest) break;
    nearest = parent;
  }
  const first = missing.at(-1);
  const made = first === undefined ? `the file cannot be made in it` : `${first} cannot be made`;
  if (!statSync(nearest).isDirectory()) return `${nearest} is a file, not a folder, so ${made}`;
  try {
    accessSync(nearest, constants.W_OK | constants.X_OK);
  } catch {
    return `this user may not write in ${nearest}, so ${made}`;
  }
  return undefined;
}
