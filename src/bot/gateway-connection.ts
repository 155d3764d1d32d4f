import { Events, type Client } from 'discord.js';
import type { Logger } from '../core/log.js';

/**
 * One line when a shard loses Discord and one when it is back, however many reconnect attempts
 * fail in between: discord.js retries on its own, and a line (or a stack trace) per attempt would
 * bury everything else for as long as Discord is away. Returns the call that ends the watch: the bot's
 * own stop closes every shard, and that is not an outage to warn about.
 */
export function watchGatewayConnection(client: Client, logger: Logger): () => void {
  const lostAt = new Map<number, number>();
  let stopping = false;
  const lost = (shard: number, reason: string) => {
    if (stopping || lostAt.has(shard)) return;
    lostAt.set(shard, Date.now());
    logger.warn({ shard, reason }, 'Discord connection lost; reconnecting');
  };
  const back = (shard: number) => {
    const since = lostAt.get(shard);
    if (since === undefined) return;
    lostAt.delete(shard);
    logger.info({ shard, downMs: Date.now() - since }, 'Discord connection back');
  };
  client.on(Events.ShardReconnecting, (shard) => lost(shard, 'closed'));
  client.on(Events.ShardError, (error, shard) => {
    const code = (error as { code?: unknown }).code;
    lost(shard, typeof code === 'string' ? code : error.message);
  });
  client.on(Events.ShardDisconnect, (event, shard) => lost(shard, `closed for good (${event.code})`));
  client.on(Events.ShardReady, (shard) => back(shard));
  client.on(Events.ShardResume, (shard) => back(shard));
  return () => {
    stopping = true;
  };
}
