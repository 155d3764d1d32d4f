import type { SignOutStore } from './root-ports.js';
import { num } from './sql.js';
import type { AllServersClass } from './sql-scoped.js';

/** The dashboard's ended sign-ins (dashboard_sign_outs), pruned as new ones are written. */
export function sqlSignOuts<Base extends AllServersClass>(base: Base) {
  return class SqlSignOuts extends base implements SignOutStore {
    async endSignIn(sid: string, userId: string, until: number, now: number): Promise<void> {
      await this.db.transaction(async (tx) => {
        await tx.query('DELETE FROM dashboard_sign_outs WHERE until <= $1', [now]);
        await tx.query(
          'INSERT INTO dashboard_sign_outs (sid, user_id, until) VALUES ($1, $2, $3) ON CONFLICT (sid) DO NOTHING',
          [sid, userId, until],
        );
      });
    }

    async signOuts(now: number): Promise<Map<string, number>> {
      const rows = await this.db.query('SELECT sid, until FROM dashboard_sign_outs WHERE until > $1', [now]);
      return new Map(rows.map((row) => [String(row.sid), num(row.until)]));
    }
  };
}
