import { randomUUID } from 'node:crypto';
import type { ForwardOutboxStore } from './root-ports.js';
import type { ShardSet } from '../shards/ownership.js';
import {
  memberVotesBefore,
  num,
  optionalNum,
  placeholders,
  ROWS_PER_INSERT,
  slices,
  type Db,
  type Row,
  type SqlValue,
} from './sql.js';
import { shardFilter } from './shard-filter.js';
import type { AllServersClass } from './sql-scoped.js';
import type { DueForward, ForwardResult } from './root-types.js';

/** A vote the ledger just took, as it is forwarded (issue 51). */
export interface ForwardedVote {
  userId: string;
  site: string;
  weight: number;
  votedAt: number;
  expiresAt: number;
  streak: number;
}

/**
 * Writes one delivery per destination of the server for each vote, in the ledger's transaction `tx`
 * and in the ledger's order: a vote recorded is a vote forwarded, whatever stops the process
 * before the send. The body is made here, once, so every retry sends the same bytes.
 */
export async function enqueueForwards(tx: Db, guildId: string, votes: readonly ForwardedVote[], now: number) {
  if (votes.length === 0) return;
  const destinations = await tx.query('SELECT id FROM forward_destinations WHERE guild_id = $1 ORDER BY id', [guildId]);
  if (destinations.length === 0) return;
  const rows: SqlValue[][] = [];
  for (const vote of votes) {
    const totals = await totalsAt(tx, guildId, vote);
    for (const destination of destinations) {
      const deliveryId = randomUUID();
      const body = JSON.stringify({
        type: 'vote.create',
        id: deliveryId,
        data: {
          guild_id: guildId,
          member_id: vote.userId,
          site: vote.site,
          weight: vote.weight,
          voted_at: new Date(vote.votedAt).toISOString(),
          expires_at: new Date(vote.expiresAt).toISOString(),
          totals,
        },
      });
      rows.push([String(destination.id), deliveryId, body]);
    }
  }
  // Ids in the rows' order: the ledger's order, which each destination's queue keeps.
  for (const slice of slices(rows, ROWS_PER_INSERT)) {
    const values = slice.map((_, n) => `($1, $${3 + n * 3}, $${4 + n * 3}, $${5 + n * 3}, $2, $2)`).join(', ');
    await tx.query(
      `INSERT INTO forward_outbox (guild_id, destination_id, delivery_id, body, next_at, created_at) VALUES ${values}`,
      [guildId, now, ...slice.flat()],
    );
  }
}

/** The seed rows a delivery took over (sql-votes.ts), as they are forwarded: counted from now on, so new to the feed. */
export async function claimedForwards(
  tx: Db,
  guildId: string,
  claimed: ReadonlyMap<string, { id: number }>,
): Promise<ForwardedVote[]> {
  if (claimed.size === 0) return [];
  const ids = [...claimed.values()].map((claim) => claim.id);
  const rows = await tx.query(
    `SELECT user_id, site, weight, voted_at, period_ends_at, streak FROM votes
     WHERE guild_id = $1 AND id IN (${placeholders(ids.length, 2)}) ORDER BY id`,
    [guildId, ...ids],
  );
  return rows.map((row) => ({
    userId: String(row.user_id),
    site: String(row.site),
    weight: num(row.weight),
    votedAt: num(row.voted_at),
    expiresAt: num(row.period_ends_at),
    streak: num(row.streak),
  }));
}

/**
 * The member's counted votes up to this one (every list, by weight; the first poll's 'seed' rows not
 * counted), in its calendar month (UTC) and in all: the rule the announcements count by.
 */
async function totalsAt(tx: Db, guildId: string, vote: ForwardedVote) {
  const day = new Date(vote.votedAt);
  const monthStart = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1);
  const [row] = await tx.query(
    `SELECT SUM(CASE WHEN source = 'seed' THEN 0 ELSE weight END) AS total,
       SUM(CASE WHEN source <> 'seed' AND voted_at >= $3 THEN weight ELSE 0 END) AS month
     FROM votes WHERE ${memberVotesBefore('$1', '$2', '<= $4')}`,
    [guildId, vote.userId, monthStart, vote.votedAt],
  );
  return { month: num(row?.month ?? 0), all_time: num(row?.total ?? 0), streak: vote.streak };
}

/**
 * `heads`: each destination's oldest waiting delivery, found by walking the outbox's index from one
 * destination to the next (a loose index scan): one probe per destination with deliveries waiting
 * (two ranges, the server's next destination or the next server's first: SQLite reads a row-value
 * range by its first column only, every waiting row of the server).
 * A `GROUP BY` over the outbox read every waiting row (20 ms a call with 100,000 waiting); starting
 * from the destinations probed every one, waiting or not (5,000 destinations: forwarded votes' p99
 * 47 ms → 2.4 s). docs/performance.md, "Vote forwarding".
 */
export const QUEUE_HEADS = `WITH RECURSIVE heads (guild_id, destination_id, id) AS (
    SELECT * FROM (
      SELECT guild_id, destination_id, id FROM forward_outbox ORDER BY guild_id, destination_id, id LIMIT 1
    ) first
    UNION ALL
    SELECT o.guild_id, o.destination_id, o.id FROM heads h
    JOIN forward_outbox o ON o.id = COALESCE(
      (SELECT x.id FROM forward_outbox x WHERE x.guild_id = h.guild_id AND x.destination_id > h.destination_id
       ORDER BY x.guild_id, x.destination_id, x.id LIMIT 1),
      (SELECT x.id FROM forward_outbox x WHERE x.guild_id > h.guild_id
       ORDER BY x.guild_id, x.destination_id, x.id LIMIT 1)
    )
  )`;

/** Every server's forwarded deliveries waiting to be sent (forward_outbox), one destination's at a time. */
export function sqlForwardOutbox<Base extends AllServersClass>(base: Base) {
  return class SqlForwardOutbox extends base implements ForwardOutboxStore {
    async dueForwards(now: number, limit: number, shards?: ShardSet): Promise<DueForward[]> {
      const onShards = shardFilter(shards, 3, 'o.guild_id');
      // Only each destination's oldest: a destination's deliveries go one at a time, in the ledger's order.
      const rows = await this.db.query(
        `${QUEUE_HEADS}
         SELECT o.id, o.guild_id, o.destination_id, o.delivery_id, o.body, o.attempts, d.url, d.secret, d.from_env
         FROM heads h
         JOIN forward_outbox o ON o.id = h.id
         JOIN forward_destinations d ON d.guild_id = o.guild_id AND d.id = o.destination_id
         WHERE o.next_at <= $1${onShards.sql}
         ORDER BY o.next_at, o.id LIMIT $2`,
        [now, limit, ...onShards.params],
      );
      return rows.map(toDue);
    }

    async nextForwardDue(shards?: ShardSet): Promise<number | undefined> {
      const onShards = shardFilter(shards, 1, 'o.guild_id');
      const [row] = await this.db.query(
        `${QUEUE_HEADS} SELECT MIN(o.next_at) AS next FROM heads h JOIN forward_outbox o ON o.id = h.id WHERE 1 = 1${onShards.sql}`,
        onShards.params,
      );
      return optionalNum(row?.next);
    }

    forwardSettled(due: DueForward, result: ForwardResult, at: number, nextAt?: number): Promise<void> {
      const text = JSON.stringify(result);
      return this.db.transaction(async (tx) => {
        if (nextAt === undefined) await tx.query('DELETE FROM forward_outbox WHERE id = $1', [due.id]);
        else
          await tx.query(
            'UPDATE forward_outbox SET attempts = attempts + 1, next_at = $2, last_result = $3 WHERE id = $1',
            [due.id, nextAt, text],
          );
        const failing = result.outcome !== 'delivered';
        await tx.query(
          `UPDATE forward_destinations SET last_at = $3, last_result = $4,
             failing_since = ${failing ? 'COALESCE(failing_since, $3)' : 'NULL'}
           WHERE guild_id = $1 AND id = $2`,
          [due.guildId, due.destinationId, at, text],
        );
      });
    }
  };
}

function toDue(row: Row): DueForward {
  return {
    id: num(row.id),
    guildId: String(row.guild_id),
    destinationId: String(row.destination_id),
    deliveryId: String(row.delivery_id),
    body: String(row.body),
    attempts: num(row.attempts),
    url: String(row.url),
    secret: row.secret === null || row.secret === undefined ? null : String(row.secret),
    fromEnvironment: num(row.from_env) === 1,
  };
}
