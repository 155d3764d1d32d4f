import type { Config } from '../config/bot.js';
import type { EnvironmentServer } from './servers.js';

/** Single-server mode's one server, as .env describes it; undefined with many servers. */
export function environmentServer(config: Config): EnvironmentServer | undefined {
  const guildId = config.discord.guildId;
  if (guildId === undefined) return undefined;
  const { apiKey, appId } = config.service;
  return {
    guildId,
    settings: { ...config.server, moderatorRoleIds: [...(config.server.moderatorRoleIds ?? [])] },
    credentials: apiKey !== undefined && appId !== undefined ? { apiKey, appId } : undefined,
    webhookToken: config.webhook?.token,
    listingSecrets: config.webhook?.listingSecrets,
    listingVoteHours: config.webhook?.listingVoteHours,
    topggApiToken: config.topgg.apiToken,
    forwardUrls: config.forward.urls,
    forwardSecret: config.forward.secret,
  };
}
