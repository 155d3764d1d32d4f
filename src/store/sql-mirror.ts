import type { MirrorStore } from './ports.js';
import { IDS_PER_STATEMENT, num, placeholders, ROWS_PER_INSERT, slices, valueRows, type SqlValue } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { MirrorEntry, PolledMirror } from './types.js';
import { LAST_POLL, MIRROR_TOTALS, sqlServerState } from './sql-server-state.js';
import { sqlMirrorEntries } from './sql-mirror-entries.js';

const UPSERT_MIRROR = `ON CONFLICT (guild_id, user_id) DO UPDATE SET expires_at = excluded.expires_at,
  via_discord = excluded.via_discord`;
const UPSERT_STATE = 'ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value';

/**
 * One server's mirror of the service's vote list (vote_mirror) and what the polls left beside it:
 * the totals and how the last poll went (server_state).
 */
export function sqlMirror<Base extends ServerScopedClass>(base: Base) {
  return class SqlMirror extends sqlMirrorEntries(sqlServerState(base)) implements MirrorStore {
    savePoll({ entries, removed, totals, poll }: PolledMirror): Promise<{ polledBefore: boolean }> {
      // One row per member: PostgreSQL refuses an upsert that changes a row twice.
      const rows = [...new Map(entries.map((entry) => [entry.userId, entry])).values()];
      const state = [JSON.stringify(totals), JSON.stringify(poll)];
      const named = removed?.length ?? rows.length;
      // A poll per server per minute: each round trip and commit counted at 10,000 servers.
      if (this.db.dialect === 'postgres' && rows.length <= ROWS_PER_INSERT && named <= IDS_PER_STATEMENT)
        return this.#savePollAtOnce(rows, removed, state);
      return this.db.transaction(async (tx) => {
        const polledBefore = (await this.readState(MIRROR_TOTALS, tx)) !== undefined;
        if (removed === undefined) await this.query('DELETE FROM vote_mirror WHERE guild_id = $1', [], tx);
        else
          for (const slice of slices(removed, IDS_PER_STATEMENT))
            await this.query(
              `DELETE FROM vote_mirror WHERE guild_id = $1 AND user_id IN (${placeholders(slice.length, 2)})`,
              slice,
              tx,
            );
        for (const slice of slices(rows, ROWS_PER_INSERT))
          await this.query(
            `INSERT INTO vote_mirror (guild_id, user_id, expires_at, via_discord) VALUES ${valueRows(slice.length, 3, 2, '$1')}
             ${UPSERT_MIRROR}`,
            mirrorValues(slice),
            tx,
          );
        await this.query(
          `INSERT INTO server_state (guild_id, key, value) VALUES ($1, $2, $3), ($1, $4, $5) ${UPSERT_STATE}`,
          [MIRROR_TOTALS, state[0]!, LAST_POLL, state[1]!],
          tx,
        );
        return { polledBefore };
      });
    }

    /**
     * savePoll on PostgreSQL as one statement: its parts see the rows as they were before it, so
     * `before` tells whether totals were stored, and the rows deleted are never the ones upserted.
     */
    async #savePollAtOnce(
      rows: readonly MirrorEntry[],
      removed: readonly string[] | undefined,
      state: readonly string[],
    ): Promise<{ polledBefore: boolean }> {
      const params: SqlValue[] = [MIRROR_TOTALS, state[0]!, LAST_POLL, state[1]!];
      const parts = [
        'before AS (SELECT key FROM server_state WHERE guild_id = $1 AND key = $2)',
        `state AS (INSERT INTO server_state (guild_id, key, value) VALUES ($1, $2, $3), ($1, $4, $5) ${UPSERT_STATE})`,
      ];
      // The whole list: every row it does not name goes. A change: the rows named go.
      const ids = removed ?? rows.map((entry) => entry.userId);
      if (removed === undefined || removed.length > 0) {
        const list = placeholders(ids.length, params.length + 2);
        const which =
          removed !== undefined ? ` AND user_id IN (${list})` : ids.length > 0 ? ` AND user_id NOT IN (${list})` : '';
        params.push(...ids);
        parts.push(`gone AS (DELETE FROM vote_mirror WHERE guild_id = $1${which})`);
      }
      if (rows.length > 0) {
        const values = valueRows(rows.length, 3, params.length + 2, '$1');
        params.push(...mirrorValues(rows));
        parts.push(
          `mirrored AS (INSERT INTO vote_mirror (guild_id, user_id, expires_at, via_discord) VALUES ${values} ${UPSERT_MIRROR})`,
        );
      }
      const [row] = await this.query(`WITH ${parts.join(', ')} SELECT COUNT(*) AS had FROM before`, params);
      return { polledBefore: num(row?.had) > 0 };
    }
  };
}

const mirrorValues = (entries: readonly MirrorEntry[]): SqlValue[] =>
  entries.flatMap((entry) => [entry.userId, entry.expiresAt, entry.viaDiscord ? 1 : 0]);
