import type { Logger } from '../core/log.js';
import type { Servers } from '../servers/servers.js';
import { listenForNotifications } from '../store/inbox-listener.js';
import { SERVERS_CHANNEL } from '../store/servers-channel.js';

const LISTENER_NAME = 'vote-review-bot settings listener';

/**
 * On PostgreSQL, a server's settings saved by another process (a /setup answered over HTTP by
 * `npm run interactions`, or by a bot on another machine) are read again here, and the server's
 * work restarted with them when they differ, as a /setup in this process restarts it at once.
 * A listener that was away reads every server this process runs again once it is back.
 */
export function followSettingsChanges(deps: {
  url: string;
  servers: Servers;
  /** Whether this process runs the server's work (its shard). */
  owns: (guildId: string) => boolean;
  /** Brings the server's work in line with its settings (runtimes.sync). */
  restart: (guildId: string) => Promise<void>;
  logger: Logger;
}): { stop(): Promise<void> } {
  const { servers, owns, restart, logger } = deps;
  const reread = async (guildId: string) => {
    const before = JSON.stringify(servers.record(guildId));
    await servers.reload(guildId);
    if (JSON.stringify(servers.record(guildId)) !== before) await restart(guildId);
  };
  const heard = (guildId: string) => {
    if (!owns(guildId)) return;
    reread(guildId).catch((err: unknown) =>
      logger.warn({ err, guildId }, "could not read a server's changed settings; they apply at its next change"),
    );
  };
  const listener = listenForNotifications({
    url: deps.url,
    channel: SERVERS_CHANNEL,
    applicationName: LISTENER_NAME,
    onNotified: heard,
    onListening(again) {
      if (again) for (const guildId of servers.known()) heard(guildId);
    },
    onDropped: (err, retryInMs) =>
      logger.warn({ err, retryInMs }, 'the settings listener lost its connection; reconnecting'),
  });
  return { stop: () => listener.stop() };
}
