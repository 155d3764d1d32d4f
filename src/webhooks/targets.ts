import { isSnowflake } from '../api/index.js';
import type { WebhookTargets } from './receiver.js';

export interface TargetOptions {
  /** WEBHOOK_PATH, e.g. /webhook. */
  path: string;
  /** A server's own token (opened for the check), if it has one; read from the store when it is shared. */
  serverToken: (guildId: string) => string | undefined | Promise<string | undefined>;
  /** Single-server mode: the plain path is this server's, with WEBHOOK_TOKEN. */
  single?: { guildId: string; token: string | undefined };
}

/** `<path>/<server id>` for every server; in single-server mode also `<path>`, as an existing install set it on Guilds. */
export function webhookTargets({ path, serverToken, single }: TargetOptions): WebhookTargets {
  const base = path.endsWith('/') ? path.slice(0, -1) : path;
  return {
    serverFor(pathname) {
      if (single && pathname === path) return single.guildId;
      if (!pathname.startsWith(`${base}/`)) return undefined;
      const id = pathname.slice(base.length + 1);
      return isSnowflake(id) ? id : undefined;
    },
    async tokenFor(guildId, pathname) {
      if (single && pathname === path) return single.token;
      return (await serverToken(guildId)) ?? (single?.guildId === guildId ? single.token : undefined);
    },
  };
}
