import pg from 'pg';
import { secretKey, sealSecret, type SecretKeys } from '../../src/secrets/secret-box.js';
import { openStore } from '../../src/store/index.js';
import { DEFAULTS, textChannelIdFor } from '../../tools/discord-standin/index.js';

/** Rows per INSERT: 10,000 servers in a handful of statements, not one /setup each. */
const ROWS_PER_INSERT = 1_000;

/**
 * Guild ids spread evenly over the shards: 17 snowflake-milliseconds apart, so consecutive ids land
 * on consecutive shards (17 % shardCount = 1 for 8 or 16 shards) and each one's channel and role ids
 * (a few ms of snowflake time later) never meet another's.
 */
export function spreadGuildIds(count: number): string[] {
  const first = BigInt(DEFAULTS.guildId) + (1_000n << 22n);
  return Array.from({ length: count }, (_, i) => (first + BigInt(i) * (17n << 22n)).toString());
}

export interface SeedCredentials {
  apiKey: string;
  appId: string;
  /** The webhook token every server's deliveries carry (sealed per server, as /setup webhook leaves it). */
  webhookToken: string;
}

/**
 * What /setup leaves for each server, written in bulk: sealed credentials and webhook token, and
 * its own text channel for reviews and votes. The store is opened once first so its migrations run.
 */
export async function seedServers(
  url: string,
  secretsKey: string,
  ids: readonly string[],
  creds: SeedCredentials,
): Promise<void> {
  await (await openStore({ kind: 'postgres', url })).close();
  const keys: SecretKeys = { current: secretKey(secretsKey, 'SECRETS_KEY') };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const now = Date.now();
    for (let from = 0; from < ids.length; from += ROWS_PER_INSERT) {
      const chunk = ids.slice(from, from + ROWS_PER_INSERT);
      const columns = [[], [], [], [], []] as string[][];
      for (const guildId of chunk) {
        const channel = textChannelIdFor(guildId);
        columns[0]!.push(guildId);
        columns[1]!.push(JSON.stringify({ reviewChannelId: channel, voteChannelId: channel }));
        columns[2]!.push(sealSecret(keys, guildId, creds.apiKey));
        columns[3]!.push(sealSecret(keys, guildId, creds.appId));
        columns[4]!.push(sealSecret(keys, guildId, creds.webhookToken));
      }
      await client.query(
        `INSERT INTO servers (guild_id, settings, api_key, app_id, webhook_token, created_at, updated_at, left_at)
         SELECT g, s, a, p, w, $6, $6, NULL
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS t(g, s, a, p, w)`,
        [...columns, now],
      );
    }
  } finally {
    await client.end();
  }
}
