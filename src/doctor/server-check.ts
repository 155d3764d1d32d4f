import type { Config } from '../config/bot.js';
import { Servers } from '../servers/servers.js';
import { describeDatabase, openStore, StoreError } from '../store/index.js';
import { inspectStore } from '../store/inspect.js';
import { fail, pass, skip, type Check, type DoctorState } from './check.js';

/**
 * `--server <id>` with many servers: the server's stored settings (opened with SECRETS_KEY) laid over
 * the configuration, so the checks after this one look at that server as `/setup status` does: its
 * channels, voter and moderator roles, its service credentials; the commands stay the global ones.
 */
export function serverCheck(guildId: string): Check {
  return {
    name: `server ${guildId} (--server)`,
    async run(state) {
      const { config } = state;
      if (!config) return skip('the configuration does not parse.');
      if (config.discord.guildId !== undefined)
        return fail(
          `DISCORD_GUILD_ID is set: this bot runs one server (${config.discord.guildId}), read from .env.`,
          'leave out --server: every check already looks at that server.',
        );
      const where = describeDatabase(config.database);
      try {
        // Reading only: a store an older build wrote is not migrated by the doctor.
        const { fresh, version, latest } = await inspectStore(config.database);
        if (fresh || version !== latest)
          return fail(
            `${where} ${fresh ? 'is not made yet' : `has schema ${version}, not ${latest}`}: no server can be read from it.`,
            'start the bot once (it makes or migrates the store), set the server up with /setup, then run the doctor again.',
          );
        return await overlay(state, config, guildId);
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        return fail(error.message, 'as that says, then run npm run doctor again.');
      }
    },
  };
}

async function overlay(state: DoctorState, config: Config, guildId: string) {
  const store = await openStore(config.database);
  try {
    const servers = new Servers(store, config.secrets, undefined);
    await servers.load();
    const settings = servers.settings(guildId);
    if (!servers.isConfigured(guildId) || !settings)
      return fail(
        `no server ${guildId} is set up in ${describeDatabase(config.database)}.`,
        'check the id (Discord: right-click the server → Copy Server ID), or set it up there with /setup credentials.',
      );
    const { apiKey, appId } = servers.credentials(guildId);
    state.config = {
      ...config,
      discord: { ...config.discord, guildId },
      service: { ...config.service, apiKey, appId },
      server: {
        reviewChannelId: settings.reviewChannelId,
        voteChannelId: settings.voteChannelId,
        auditChannelId: settings.auditChannelId,
        reminderChannelId: settings.reminderChannelId,
        voterRoleId: settings.voterRoleId,
        moderatorRoleIds: [...settings.moderatorRoleIds],
      },
    };
    state.oneOfMany = true;
    return pass('its settings, opened with SECRETS_KEY, are what the checks below look at.');
  } finally {
    await store.close();
  }
}
