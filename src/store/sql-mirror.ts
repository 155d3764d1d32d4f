import type { MirrorStore } from './ports.js';
import { num, ROWS_PER_INSERT, slices, valueRows, type Db, type Row } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { MirrorEntry, MirrorTotals, PollRecord } from './types.js';

/** The keys of server_state, a value each per server: the mirror's totals and the last poll. */
const MIRROR_TOTALS = 'mirror_totals';
const LAST_POLL = 'last_poll';

/**
 * One server's mirror of the service's vote list (vote_mirror) and what the polls left beside it:
 * the totals and how the last poll went (server_state).
 */
export function sqlMirror<Base extends ServerScopedClass>(base: Base) {
  return class SqlMirror extends base implements MirrorStore {
    replaceMirror(entries: readonly MirrorEntry[], totals: MirrorTotals): Promise<void> {
      return this.db.transaction(async (tx) => {
        await this.query('DELETE FROM vote_mirror WHERE guild_id = $1', [], tx);
        // Many rows a statement: a row each made a poll of a busy server hundreds of round trips.
        for (const rows of slices(entries, ROWS_PER_INSERT)) {
          await this.query(
            `INSERT INTO vote_mirror (guild_id, user_id, expires_at, via_discord) VALUES ${valueRows(rows.length, 3, 2, '$1')}`,
            rows.flatMap((entry) => [entry.userId, entry.expiresAt, entry.viaDiscord ? 1 : 0]),
            tx,
          );
        }
        await this.#setState(MIRROR_TOTALS, totals, tx);
      });
    }

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

    mirrorTotals(): Promise<MirrorTotals | undefined> {
      return this.#state<MirrorTotals>(MIRROR_TOTALS);
    }

    recordPoll(poll: PollRecord): Promise<void> {
      return this.#setState(LAST_POLL, poll);
    }

    lastPoll(): Promise<PollRecord | undefined> {
      return this.#state<PollRecord>(LAST_POLL);
    }

    async #state<T>(key: string): Promise<T | undefined> {
      const [row] = await this.query('SELECT value FROM server_state WHERE guild_id = $1 AND key = $2', [key]);
      return row && (JSON.parse(String(row.value)) as T);
    }

    async #setState(key: string, value: unknown, db: Db = this.db): Promise<void> {
      await this.query(
        `INSERT INTO server_state (guild_id, key, value) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value`,
        [key, JSON.stringify(value)],
        db,
      );
    }
  };
}

function toMirrorEntry(row: Row): MirrorEntry {
  return { userId: String(row.user_id), expiresAt: num(row.expires_at), viaDiscord: num(row.via_discord) === 1 };
}
