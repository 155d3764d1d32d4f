import { num, type Row } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { ParkedLane } from './types.js';

/** One server's channels Discord refuses (parked_lanes): a lane waits, its posts kept, until the fix. */
export function sqlParkedLanes<Base extends ServerScopedClass>(base: Base) {
  return class SqlParkedLanes extends base {
    parkLane(lane: ParkedLane): Promise<boolean> {
      return this.changed(
        `INSERT INTO parked_lanes (guild_id, channel_id, reason, code, parked_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (channel_id) DO NOTHING RETURNING channel_id`,
        [lane.channelId, lane.reason, lane.code, lane.parkedAt],
      );
    }

    unparkLane(channelId: string): Promise<boolean> {
      return this.changed('DELETE FROM parked_lanes WHERE guild_id = $1 AND channel_id = $2 RETURNING channel_id', [
        channelId,
      ]);
    }

    async parkedLane(channelId: string): Promise<ParkedLane | undefined> {
      const [row] = await this.query('SELECT * FROM parked_lanes WHERE guild_id = $1 AND channel_id = $2', [channelId]);
      return row && toParkedLane(row);
    }

    async parkedLanes(): Promise<ParkedLane[]> {
      const rows = await this.query('SELECT * FROM parked_lanes WHERE guild_id = $1 ORDER BY channel_id');
      return rows.map(toParkedLane);
    }
  };
}

function toParkedLane(row: Row): ParkedLane {
  return {
    channelId: String(row.channel_id),
    reason: String(row.reason),
    code: num(row.code),
    parkedAt: num(row.parked_at),
  };
}
