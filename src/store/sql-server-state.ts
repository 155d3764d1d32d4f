import type { Db } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { CountMark, MirrorTotals, PollRecord } from './types.js';

/** The keys of server_state, a value each per server: the mirror's totals and the last poll. */
export const MIRROR_TOTALS = 'mirror_totals';
export const LAST_POLL = 'last_poll';
const COUNT_MARK = 'count_mark';

/** One server's values in server_state: the mirror's totals, the count mark and how the last poll went. */
export function sqlServerState<Base extends ServerScopedClass>(base: Base) {
  return class SqlServerState extends base {
    mirrorTotals(): Promise<MirrorTotals | undefined> {
      return this.readState<MirrorTotals>(MIRROR_TOTALS);
    }

    countMark(): Promise<CountMark | undefined> {
      return this.readState<CountMark>(COUNT_MARK);
    }

    setCountMark(mark: CountMark): Promise<void> {
      return this.writeState(COUNT_MARK, mark);
    }

    recordPoll(poll: PollRecord): Promise<void> {
      return this.writeState(LAST_POLL, poll);
    }

    lastPoll(): Promise<PollRecord | undefined> {
      return this.readState<PollRecord>(LAST_POLL);
    }

    protected async readState<T>(key: string, db: Db = this.db): Promise<T | undefined> {
      const [row] = await this.query('SELECT value FROM server_state WHERE guild_id = $1 AND key = $2', [key], db);
      return row && (JSON.parse(String(row.value)) as T);
    }

    protected async writeState(key: string, value: unknown, db: Db = this.db): Promise<void> {
      await this.query(
        `INSERT INTO server_state (guild_id, key, value) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value`,
        [key, JSON.stringify(value)],
        db,
      );
    }
  };
}
