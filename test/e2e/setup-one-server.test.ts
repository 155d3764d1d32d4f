import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { textOf } from '../../tools/conversation.js';
import {
  member,
  MODERATOR_PERMISSIONS,
  OptionType,
  slashCommand,
  textChannelIdFor,
  type CommandOption,
} from '../../tools/discord-standin/index.js';
import { startWorld, type World } from '../../tools/world.js';

// DISCORD_GUILD_ID set: the server's settings are .env's, and /setup fills in only what .env leaves empty.
let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

const admin = member({ permissions: MODERATOR_PERMISSIONS });

function setup(sub: string, options: CommandOption[] = []) {
  return world.discord.sendInteraction(
    slashCommand({ name: 'setup', member: admin, options: [{ name: sub, type: OptionType.Subcommand, options }] }),
  );
}

const channel = (kind: string) => [
  { name: 'kind', type: OptionType.String, value: kind },
  { name: 'target', type: OptionType.Channel, value: textChannelIdFor(world.discord.guildId) },
];

describe('/setup with one server from .env', () => {
  it('refuses to change what the environment sets, naming the variable', async () => {
    expect(textOf(await setup('channel', channel('audit')).waitForMessage())).toContain('REVIEW_LOG_CHANNEL_ID');
    const credentials = setup('credentials');
    expect(textOf(await credentials.waitForMessage())).toContain('SERVICE_API_KEY');
    expect(credentials.modal()).toBeUndefined();
  });

  it('sets what the environment leaves empty', async () => {
    const set = await setup('channel', channel('review')).waitForMessage();
    expect(textOf(set)).toMatch(/Channel set/);
    expect(textOf(set)).toContain(`<#${textChannelIdFor(world.discord.guildId)}>`);
  });

  it('says the webhook receiver is off when WEBHOOK_PORT is not set', async () => {
    expect(textOf(await setup('webhook').waitForMessage())).toContain('WEBHOOK_PORT');
  });
});
