import { num, type Row } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { MirrorEntry } from './types.js';

/** One server's mirror rows one member at a time: what a refresh or a /vote learned. */
export function sqlMirrorEntries<Base extends ServerScopedClass>(base: Base) {
  return class SqlMirrorEntries extends base {
    async setMirrorEntry(userId: string, entry: MirrorEntry | null): Promise<void> {
      if (entry === null) {
        await this.query('DELETE FROM vote_mirror WHERE guild_id = $1 AND user_id = $2', [userId]);
        return;
      }
      await this.query(
        `INSERT INTO vote_mirror (guild_id, user_id, expires_at, via_discord) VALUES ($1, $2, $3, $4)
         ON CONFLICT (guild_id, user_id) DO UPDATE SET expires_at = excluded.expires_at, via_discord = excluded.via_discord`,
        [userId, entry.expiresAt, entry.viaDiscord ? 1 : 0],
      );
    }

    async mirrorEntry(userId: string): Promise<MirrorEntry | undefined> {
      const [row] = await this.query(
        'SELECT user_id, expires_at, via_discord FROM vote_mirror WHERE guild_id = $1 AND user_id = $2',
        [userId],
      );
      return row && toMirrorEntry(row);
    }

    async mirrorEntries(): Promise<MirrorEntry[]> {
      const rows = await this.query(
        'SELECT user_id, expires_at, via_discord FROM vote_mirror WHERE guild_id = $1 ORDER BY user_id',
      );
      return rows.map(toMirrorEntry);
    }
  };
}

function toMirrorEntry(row: Row): MirrorEntry {
  return { userId: String(row.user_id), expiresAt: num(row.expires_at), viaDiscord: num(row.via_discord) === 1 };
}
