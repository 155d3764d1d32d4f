import { Events, type Client } from 'discord.js';
import type { Logger } from '../core/log.js';
import type { Runtimes } from './runtimes.js';
import type { Servers } from '../servers/servers.js';

/** How often servers left more than 30 days ago are forgotten. */
const FORGET_EVERY_MS = 6 * 3_600_000;

/**
 * Servers come and go: joining one starts its work if it is set up (it registers nothing: the
 * commands are global); leaving one (or being kicked) stops its work at once, and its data and
 * secrets go 30 days later (at once with /setup reset). An outage (the guild unavailable) is not
 * leaving. Returns a function that stops the watch.
 */
export function watchMembership(client: Client, servers: Servers, runtimes: Runtimes, logger: Logger): () => void {
  const onCreate = (guild: { id: string }) => {
    void servers
      .joined(guild.id)
      .then(() => (runtimes.get(guild.id) ? undefined : runtimes.sync(guild.id)))
      .catch((err: unknown) => logger.warn({ err, guildId: guild.id }, 'could not record joining a server'));
  };
  const onDelete = (guild: { id: string; available: boolean }) => {
    if (!guild.available) return;
    logger.info({ guildId: guild.id }, 'the bot left a server (or was removed); its work stops');
    void servers
      .left(guild.id)
      .then(() => runtimes.sync(guild.id))
      .catch((err: unknown) => logger.warn({ err, guildId: guild.id }, 'could not record leaving a server'));
  };
  const forget = () =>
    void servers.forgetLeft().then(
      (gone) => {
        if (gone.length > 0) logger.info({ servers: gone }, 'forgot servers left over 30 days ago, with their data');
      },
      (err: unknown) => logger.warn({ err }, 'could not forget servers left long ago'),
    );
  client.on(Events.GuildCreate, onCreate);
  client.on(Events.GuildDelete, onDelete);
  forget();
  const timer = setInterval(forget, FORGET_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    client.off(Events.GuildCreate, onCreate);
    client.off(Events.GuildDelete, onDelete);
  };
}
