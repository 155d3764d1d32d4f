import { afterEach, describe, expect, it } from '@jest/globals';
import { Events, type Client } from 'discord.js';
import { createDiscordClient } from '../../src/bot/client.js';
import { parseConfig } from '../../src/config/bot.js';
import { mayChangeWith } from '../../src/dashboard/access.js';
import { gatewayView, restView } from '../../src/dashboard/bot-view.js';
import type { BotView } from '../../src/dashboard/deps.js';
import { ShardOwnership } from '../../src/shards/ownership.js';
import {
  DEFAULTS,
  member,
  startDiscordStandIn,
  textChannelIdFor,
  type DiscordStandIn,
} from '../../tools/discord-standin/index.js';
import { VALID_ENV } from '../support/config-env.js';

let standIn: DiscordStandIn | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.destroy();
  await standIn?.close();
  client = undefined;
  standIn = undefined;
});

async function botClient(): Promise<{ standIn: DiscordStandIn; client: Client }> {
  standIn = await startDiscordStandIn();
  const config = parseConfig({ ...VALID_ENV, DISCORD_API_URL: standIn.apiUrl, DISCORD_GUILD_ID: standIn.guildId });
  client = createDiscordClient(config, ShardOwnership.everything());
  return { standIn, client };
}

/** The gateway's view: the client logged in, its guilds from GUILD_CREATE. */
async function gateway(): Promise<{ standIn: DiscordStandIn; view: BotView }> {
  const { standIn, client } = await botClient();
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(standIn.token);
  await ready;
  return { standIn, view: gatewayView(client) };
}

/** `npm run dashboard`'s view: REST reads only, never a gateway session. */
async function rest(): Promise<{ standIn: DiscordStandIn; view: BotView }> {
  const { standIn, client } = await botClient();
  client.rest.setToken(standIn.token);
  return { standIn, view: await restView(client) };
}

describe.each([
  ['the gateway', gateway],
  ['REST alone', rest],
])("the bot's view of a server through %s", (_how, make) => {
  it('has its channels, roles and the bot itself, as the setup checks read them; none for a server without the bot', async () => {
    const { standIn, view } = await make();
    const guild = await view.guild(standIn.guildId);
    expect(guild?.channels.cache.has(textChannelIdFor(standIn.guildId))).toBe(true);
    expect(guild?.roles.cache.has(standIn.moderatorRoleId)).toBe(true);
    expect(guild?.members.me?.id).toBe(standIn.botUserId);
    expect(await view.guild(DEFAULTS.foreignGuildId)).toBeUndefined();
    if (_how === 'REST alone') expect(standIn.gatewaySessions).toBe(0);
  });

  it('lets the owner change the server, and not a member without Manage Server, nor anyone in a server without the bot', async () => {
    const { standIn, view } = await make();
    const mayChange = mayChangeWith(view);
    const moderator = member({ roles: [standIn.moderatorRoleId] });
    standIn.addMembers([moderator]);
    expect(await mayChange(standIn.guildId, DEFAULTS.ownerId)).toBe(true);
    expect(await mayChange(standIn.guildId, moderator.user.id)).toBe(false);
    expect(await mayChange(standIn.guildId, '123456789012345678')).toBe(false);
    expect(await mayChange(DEFAULTS.foreignGuildId, DEFAULTS.ownerId)).toBe(false);
  });
});
