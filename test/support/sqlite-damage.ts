import { closeSync, openSync, statSync, writeSync } from 'node:fs';

/**
 * Overwrites whole pages of a closed SQLite file with a pattern no page holds, as a torn write or a
 * failing disk leaves them. Page 0 is the header; the tables start at page 1 (SQLite's page 2).
 */
export function damagePages(file: string, pages: readonly number[], pageSize = 4096): void {
  const needed = (Math.max(...pages) + 1) * pageSize;
  if (statSync(file).size < needed) throw new Error(`${file} is smaller than ${needed} bytes`);
  const fd = openSync(file, 'r+');
  try {
    for (const page of pages) writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, page * pageSize);
  } finally {
    closeSync(fd);
  }
}
