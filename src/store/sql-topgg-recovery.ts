import type { TopggRecoveryStore } from './root-ports.js';
import { optionalNum, type Row } from './sql.js';
import type { AllServersClass } from './sql-scoped.js';
import type { TopggRecoveryState } from './root-types.js';

/**
 * Top.gg votes read back after downtime: where the read starts (the ledger's latest Top.gg vote) and
 * what stops a server's reads (topgg_recovery: a refused token parked, a 429's hour).
 */
export function sqlTopggRecovery<Base extends AllServersClass>(base: Base) {
  return class SqlTopggRecovery extends base implements TopggRecoveryStore {
    async latestListVote(guildId: string, site: string, before: number): Promise<number | undefined> {
      const [row] = await this.db.query(
        'SELECT MAX(voted_at) AS at FROM votes WHERE guild_id = $1 AND site = $2 AND voted_at < $3',
        [guildId, site, before],
      );
      return optionalNum(row?.at);
    }

    async topggRecoveryStates(): Promise<Map<string, TopggRecoveryState>> {
      const rows = await this.db.query('SELECT * FROM topgg_recovery');
      return new Map(rows.map((row) => [String(row.guild_id), toState(row)]));
    }

    async topggRecovery(guildId: string): Promise<TopggRecoveryState | undefined> {
      const [row] = await this.db.query('SELECT * FROM topgg_recovery WHERE guild_id = $1', [guildId]);
      return row === undefined ? undefined : toState(row);
    }

    async saveTopggRecovery(guildId: string, state: TopggRecoveryState | undefined): Promise<void> {
      if (state === undefined) {
        await this.db.query('DELETE FROM topgg_recovery WHERE guild_id = $1', [guildId]);
        return;
      }
      await this.db.query(
        `INSERT INTO topgg_recovery (guild_id, parked_token, parked_status, parked_at, blocked_until)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (guild_id) DO UPDATE SET parked_token = excluded.parked_token,
           parked_status = excluded.parked_status, parked_at = excluded.parked_at,
           blocked_until = excluded.blocked_until`,
        [
          guildId,
          state.parked?.token ?? null,
          state.parked?.status ?? null,
          state.parked?.at ?? null,
          state.blockedUntil ?? null,
        ],
      );
    }
  };
}

function toState(row: Row): TopggRecoveryState {
  const state: TopggRecoveryState = {};
  const status = optionalNum(row.parked_status);
  const at = optionalNum(row.parked_at);
  if (row.parked_token !== null && row.parked_token !== undefined && status !== undefined && at !== undefined)
    state.parked = { token: String(row.parked_token), status, at };
  const blockedUntil = optionalNum(row.blocked_until);
  if (blockedUntil !== undefined) state.blockedUntil = blockedUntil;
  return state;
}
