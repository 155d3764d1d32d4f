import type { MilestoneStore } from './ports.js';
import { num, orNull } from './sql.js';
import type { ServerScopedClass } from './sql-scoped.js';
import type { Milestone, MilestoneGrant, MilestonePeriod } from './types.js';

/** One server's milestones and the milestone roles the bot gave (milestones, milestone_grants). */
export function sqlMilestones<Base extends ServerScopedClass>(base: Base) {
  return class SqlMilestones extends base implements MilestoneStore {
    async milestones(): Promise<Milestone[]> {
      const rows = await this.query('SELECT * FROM milestones WHERE guild_id = $1 ORDER BY votes, role_id');
      return rows.map((row) => ({
        roleId: String(row.role_id),
        votes: num(row.votes),
        period: String(row.period) as MilestonePeriod,
        createdAt: num(row.created_at),
        parked: orNull(row.parked),
      }));
    }

    async setMilestone({ roleId, votes, period, createdAt }: Omit<Milestone, 'parked'>): Promise<void> {
      await this.query(
        `INSERT INTO milestones (guild_id, role_id, votes, period, created_at, parked) VALUES ($1, $2, $3, $4, $5, NULL)
         ON CONFLICT (guild_id, role_id) DO UPDATE SET votes = excluded.votes, period = excluded.period, parked = NULL`,
        [roleId, votes, period, createdAt],
      );
    }

    removeMilestone(roleId: string): Promise<boolean> {
      return this.db.transaction(async (tx) => {
        await this.query('DELETE FROM milestone_grants WHERE guild_id = $1 AND role_id = $2', [roleId], tx);
        return this.changed(
          'DELETE FROM milestones WHERE guild_id = $1 AND role_id = $2 RETURNING role_id',
          [roleId],
          tx,
        );
      });
    }

    parkMilestone(roleId: string, reason: string): Promise<boolean> {
      return this.changed(
        'UPDATE milestones SET parked = $3 WHERE guild_id = $1 AND role_id = $2 AND parked IS NULL RETURNING role_id',
        [roleId, reason],
      );
    }

    unparkMilestone(roleId: string): Promise<boolean> {
      return this.changed(
        'UPDATE milestones SET parked = NULL WHERE guild_id = $1 AND role_id = $2 AND parked IS NOT NULL RETURNING role_id',
        [roleId],
      );
    }

    async milestoneGrants(): Promise<MilestoneGrant[]> {
      const rows = await this.query(
        'SELECT role_id, user_id, month, granted_at FROM milestone_grants WHERE guild_id = $1 ORDER BY granted_at, user_id',
      );
      return rows.map((row) => ({
        roleId: String(row.role_id),
        userId: String(row.user_id),
        month: String(row.month),
        grantedAt: num(row.granted_at),
      }));
    }

    async recordMilestoneGrant({ roleId, userId, month, grantedAt }: MilestoneGrant): Promise<void> {
      await this.query(
        `INSERT INTO milestone_grants (guild_id, role_id, user_id, month, granted_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (guild_id, role_id, user_id) DO UPDATE SET month = excluded.month, granted_at = excluded.granted_at`,
        [roleId, userId, month, grantedAt],
      );
    }

    async dropMilestoneGrant(roleId: string, userId: string, month: string): Promise<void> {
      await this.query(
        'DELETE FROM milestone_grants WHERE guild_id = $1 AND role_id = $2 AND user_id = $3 AND month = $4',
        [roleId, userId, month],
      );
    }
  };
}
