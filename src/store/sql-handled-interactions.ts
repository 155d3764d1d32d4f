import type { HandledInteractionStore } from './root-ports.js';
import type { AllServersClass } from './sql-scoped.js';

/** Interactions answered over HTTP (handled_interactions), each kept until its signature would be refused as stale. */
export function sqlHandledInteractions<Base extends AllServersClass>(base: Base) {
  return class SqlHandledInteractions extends base implements HandledInteractionStore {
    async claimInteraction(guildId: string, id: string, until: number): Promise<boolean> {
      // One statement: two processes claiming the same id at once cannot both insert it.
      const inserted = await this.db.query(
        'INSERT INTO handled_interactions (id, guild_id, until) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id',
        [id, guildId, until],
      );
      return inserted.length === 1;
    }

    async forgetHandledInteractions(now: number): Promise<number> {
      const gone = await this.db.query('DELETE FROM handled_interactions WHERE until <= $1 RETURNING id', [now]);
      return gone.length;
    }
  };
}
