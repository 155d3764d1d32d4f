import { createHash } from 'node:crypto';

/** Where in the poll interval a server's polls fall: the same place every time, spread evenly over servers. */
export function pollOffsetMs(guildId: string, pollMs: number): number {
  if (pollMs <= 0) return 0;
  return createHash('sha256').update(guildId).digest().readUIntBE(0, 6) % pollMs;
}
