import type { HandledInteractionStore } from './root-ports.js';
import type { InteractionClaim } from './root-types.js';
import { ROWS_PER_INSERT, slices, valueRows } from './sql.js';
import type { AllServersClass } from './sql-scoped.js';

/** Interactions answered over HTTP (handled_interactions), each kept until its signature would be refused as stale. */
export function sqlHandledInteractions<Base extends AllServersClass>(base: Base) {
  return class SqlHandledInteractions extends base implements HandledInteractionStore {
    async claimInteractions(claims: readonly InteractionClaim[]): Promise<boolean[]> {
      const inserted = new Set<string>();
      for (const slice of slices(claims, ROWS_PER_INSERT)) {
        // One statement: two processes claiming the same id at once cannot both insert it.
        const rows = await this.db.query(
          `INSERT INTO handled_interactions (id, guild_id, until) VALUES ${valueRows(slice.length, 3, 1)}
           ON CONFLICT (id) DO NOTHING RETURNING id`,
          slice.flatMap((claim) => [claim.id, claim.guildId, claim.until]),
        );
        for (const row of rows) inserted.add(String(row.id));
      }
      // An id given twice was inserted once: its first claim has it.
      return claims.map((claim) => inserted.delete(claim.id));
    }

    async forgetHandledInteractions(now: number): Promise<number> {
      const gone = await this.db.query('DELETE FROM handled_interactions WHERE until <= $1 RETURNING id', [now]);
      return gone.length;
    }
  };
}
