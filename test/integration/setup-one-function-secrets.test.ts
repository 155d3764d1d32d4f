import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, type Client, type Guild, type Interaction } from 'discord.js';
import { execute } from '../../commands/setup.js';
import { createDiscordClient } from '../../src/bot/client.js';
import { ReplyGuard } from '../../src/bot/reply-guard.js';
import { parseConfig } from '../../src/config/bot.js';
import { decodeCustomId, encodeCustomId, Prefix } from '../../src/core/custom-id.js';
import { english } from '../../src/i18n/index.js';
import { setupCredentials } from '../../src/interactions/setup-credentials.js';
import { setupListingSecret } from '../../src/interactions/setup-listing-secret.js';
import { setupReset } from '../../src/interactions/setup-reset.js';
import { isAdaptedSiteId } from '../../src/lists/index.js';
import type { BaseContext, BotContext } from '../../src/runtime/context.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { Servers } from '../../src/servers/servers.js';
import type { ChangeTarget } from '../../src/setup/change.js';
import { applyChannel } from '../../src/setup/channel.js';
import { applyCredentials } from '../../src/setup/credentials.js';
import { applyListingAdd, applyListingRemove } from '../../src/setup/listing.js';
import { applyListingSecret } from '../../src/setup/listing-secret.js';
import { applyReset, RESET_CONFIRM } from '../../src/setup/reset.js';
import { applyWebhook } from '../../src/setup/webhook.js';
import { ShardOwnership } from '../../src/shards/ownership.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { LISTING_SECRET_FIELD } from '../../src/views/listing-secret-modal.js';
import { textOf } from '../../tools/conversation.js';
import {
  buttonClick,
  member,
  modalSubmit,
  MODERATOR_PERMISSIONS,
  OptionType,
  slashCommand,
  startDiscordStandIn,
  textChannelIdFor,
  type CommandOption,
  type DiscordStandIn,
  type Message,
} from '../../tools/discord-standin/index.js';
import { capturedLog } from '../support/captured-log.js';
import { multiServerBotEnv } from '../support/multi-server.js';
import { pollUntil } from '../support/poll-until.js';
import { useSandbox } from '../support/sandbox-per-file.js';
import type { Actor } from '../../src/bot/actor.js';

// The changes that keep secrets, made with /setup (and its forms and button) on one store and by
// the dashboard's calls on another: the same rows, except the secrets the bot makes at random.
let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));
let discord: DiscordStandIn;
let client: Client;
let guild: Guild;
const roots: StoreRoot[] = [];
const commandErrors: unknown[] = [];
let viaCommand: BaseContext;
let viaDashboard: BaseContext;
const SECRETS_KEY = randomBytes(32).toString('base64');

const admin = member({ permissions: MODERATOR_PERMISSIONS });
const dana: Actor = { userId: '330000000000000003', name: 'Dana', via: 'dashboard', locale: 'en-US' };

async function contextOn(): Promise<BaseContext> {
  const config = parseConfig({
    ...multiServerBotEnv(discord, sandbox, SECRETS_KEY),
    WEBHOOK_PORT: '8787',
    WEBHOOK_PUBLIC_URL: 'https://bot.example.com',
  });
  const root = await openStore({ kind: 'sqlite', file: ':memory:' });
  roots.push(root);
  const servers = new Servers(root, config.secrets, undefined);
  await servers.load();
  const unused = () => Promise.reject(new Error('not used by these changes'));
  return {
    config,
    logger: capturedLog().logger,
    replyGuard: new ReplyGuard(),
    now: () => new Date(),
    servers,
    setup: {
      changes: servers,
      checkService: unused,
      forgetClient: () => {},
      lastDeliveryAt: async () => undefined,
      milestones: (guildId) => root.forServer(guildId),
      apiKeys: root,
      milestonesChanged: () => {},
      lastPoll: unused,
      recentDeliveries: unused,
      topggReads: (guildId) => root.topggRecovery(guildId),
      commands: [],
    },
  };
}

/** What the router does for these: the command, its two forms and the reset button, on /setup's store. */
async function route(interaction: Interaction): Promise<void> {
  const ctx = viaCommand as BotContext;
  if (interaction.isChatInputCommand()) return execute(interaction, viaCommand);
  if (interaction.isModalSubmit()) {
    const { prefix, arg } = decodeCustomId(interaction.customId)!;
    if (prefix === Prefix.setupCredentials) return setupCredentials.run(interaction, 'v1', ctx);
    if (prefix === Prefix.setupListingSecret && isAdaptedSiteId(arg))
      return setupListingSecret.run(interaction, arg, ctx);
  }
  if (interaction.isButton()) return setupReset.run(interaction, RESET_CONFIRM, ctx);
}

beforeAll(async () => {
  // The audit channel gets six lines within seconds here, past Discord's 5 per 5 s: with the stand-in's
  // limits on, the sixth waited out a whole window (5 s). Pacing is the poster's tests' subject.
  discord = await startDiscordStandIn({ channelRateLimits: false });
  const config = parseConfig({ ...multiServerBotEnv(discord, sandbox, SECRETS_KEY) });
  client = createDiscordClient(config, ShardOwnership.everything());
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(discord.token);
  await ready;
  guild = client.guilds.cache.get(discord.guildId)!;
  viaCommand = await contextOn();
  viaDashboard = await contextOn();
  client.on(Events.InteractionCreate, (interaction) => {
    route(interaction).catch((err: unknown) => commandErrors.push(err));
  });
});

afterAll(async () => {
  await client?.destroy();
  for (const root of roots) await root.close();
  await discord?.close();
});

const target = (): ChangeTarget => ({ guildId: discord.guildId, guild });
const send = (payload: Parameters<DiscordStandIn['sendInteraction']>[0]) => discord.sendInteraction(payload);
const command = (options: CommandOption[]) => slashCommand({ name: 'setup', member: admin, options });
const sub = (name: string, options: CommandOption[] = []): CommandOption => ({
  name,
  type: OptionType.Subcommand,
  options,
});
const listing = (name: string, options: CommandOption[]): CommandOption => ({
  name: 'listing',
  type: OptionType.SubcommandGroup,
  options: [sub(name, options)],
});
const site = (id: string): CommandOption => ({ name: 'site', type: OptionType.String, value: id });
const hours = (value: number): CommandOption => ({ name: 'vote-hours', type: OptionType.Integer, value });

/** The server's rows, the secrets reduced to whether they are there; credentials opened (they were typed). */
function rows(ctx: BaseContext) {
  const record = ctx.servers.record(discord.guildId);
  if (!record) return undefined;
  return {
    settings: record.settings,
    sealed: Object.fromEntries(Object.entries(record.sealed).map(([name, value]) => [name, value !== null])),
    credentials: record.sealed.apiKey ? ctx.servers.credentials(discord.guildId) : undefined,
    listings: ctx.servers.listings.of(discord.guildId).map(({ createdAt: _at, ...kept }) => ({
      ...kept,
      secret: ctx.servers.listings.checkFor(discord.guildId, kept.site)?.secret !== undefined,
    })),
  };
}

const expectSame = async (answer: Promise<Message>, title: string) => {
  expect(textOf(await answer)).toContain(title);
  expect(commandErrors).toEqual([]);
  expect(rows(viaDashboard)).toEqual(rows(viaCommand));
};

const auditLines = () =>
  discord
    .channelMessages(textChannelIdFor(discord.guildId))
    .map((message) => message.content)
    .filter((content) => content.startsWith('Changed on the dashboard by <@330000000000000003> (Dana)'));

describe('a change that keeps a secret, made with /setup and on the dashboard', () => {
  it('credentials: the same service credentials, checked with the service first', async () => {
    const typed = { apiKey: ` ${sandbox.apiKey} `, appId: sandbox.appId };
    const form = await send(command([sub('credentials')])).waitForModal();
    const submit = send(
      modalSubmit({ customId: form.custom_id, member: admin, fields: { api_key: typed.apiKey, app_id: typed.appId } }),
    );
    await applyCredentials(viaDashboard, target(), typed, dana);
    await expectSame(submit.waitForMessage(10_000), 'Credentials saved');
    expect(rows(viaCommand)?.credentials).toEqual({ apiKey: sandbox.apiKey, appId: sandbox.appId });
  });

  it('the audit channel, then a webhook token made', async () => {
    const channel = textChannelIdFor(discord.guildId);
    const options: CommandOption[] = [
      { name: 'kind', type: OptionType.String, value: 'audit' },
      { name: 'target', type: OptionType.Channel, value: channel },
    ];
    await applyChannel(viaDashboard, target(), { kind: 'audit', channelId: channel }, dana);
    await expectSame(send(command([sub('channel', options)])).waitForMessage(), 'Channel set');
    const shown = await applyWebhook(viaDashboard, target(), {}, dana);
    expect(shown.token).toEqual({ whole: expect.any(String) });
    await expectSame(send(command([sub('webhook')])).waitForMessage(), 'Webhook for this server');
  });

  it('a list added with its vote length, the length changed, and Top.gg’s own secret pasted', async () => {
    const added = await applyListingAdd(viaDashboard, target(), { site: 'discordplace', voteHours: 12 }, dana);
    expect(added).toEqual({ listing: expect.objectContaining({ secret: { whole: expect.any(String) } }) });
    await expectSame(
      send(command([listing('add', [site('discordplace'), hours(12)])])).waitForMessage(),
      'discord.place',
    );
    await applyListingAdd(viaDashboard, target(), { site: 'discordplace', voteHours: 6 }, dana);
    await expectSame(send(command([listing('add', [site('discordplace'), hours(6)])])).waitForMessage(), '6 h');

    const secret = 'topgg-secret-from-the-site-0001';
    await applyListingSecret(viaDashboard, target(), { site: 'topgg', secret }, dana);
    const customId = encodeCustomId(Prefix.setupListingSecret, 'topgg');
    const pasted = send(modalSubmit({ customId, member: admin, fields: { [LISTING_SECRET_FIELD]: secret } }));
    await expectSame(pasted.waitForMessage(), english.t('setup.listing.saved.title'));
    const lengths = Object.fromEntries(rows(viaCommand)!.listings.map((l) => [l.site, l.voteLengthMs]));
    expect(lengths).toEqual({ discordplace: 6 * 3_600_000, topgg: null });
  });

  it('refuses vote hours out of bounds from the dashboard, changing nothing', async () => {
    const before = rows(viaDashboard);
    for (const voteHours of [0, 169, 1.5])
      await expect(
        applyListingAdd(viaDashboard, target(), { site: 'discordplace', voteHours }, dana),
      ).rejects.toMatchObject({ key: 'refusal.listingVoteHours' });
    expect(rows(viaDashboard)).toEqual(before);
  });

  it('a list removed', async () => {
    await applyListingRemove(viaDashboard, target(), { site: 'discordplace' }, dana);
    await expectSame(send(command([listing('remove', [site('discordplace')])])).waitForMessage(), 'List removed');
  });

  it('audited on the dashboard by its end only, never a whole secret', () => {
    const lines = auditLines();
    // Credentials came before the audit channel; the token, the list, its length, the paste and the removal after it.
    expect(lines).toHaveLength(6);
    expect(lines[1]).toContain('**Webhook token made**');
    expect(lines.join('\n')).not.toContain(viaDashboard.servers.webhookToken(discord.guildId)!);
    expect(lines.join('\n')).not.toContain('topgg-secret-from-the-site-0001');
    expect(lines.join('\n')).toContain('0001');
  });

  it("Top.gg's API token: kept sealed by both, shown and audited by its end only; refused elsewhere", async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.topgg-project-token.sig-9876';
    const before = rows(viaDashboard);
    await expect(
      applyListingAdd(viaDashboard, target(), { site: 'discadia', apiToken: token }, dana),
    ).rejects.toMatchObject({ key: 'refusal.apiTokenTopggOnly' });
    await expect(
      applyListingAdd(viaDashboard, target(), { site: 'topgg', apiToken: 'too short' }, dana),
    ).rejects.toMatchObject({ key: 'refusal.apiTokenShape' });
    expect(rows(viaDashboard)).toEqual(before);
    const added = await applyListingAdd(viaDashboard, target(), { site: 'topgg', apiToken: token }, dana);
    expect(added).toEqual({ listing: expect.objectContaining({ apiToken: { end: '••••9876' } }) });
    const option: CommandOption = { name: 'api-token', type: OptionType.String, value: token };
    const answer = await send(command([listing('add', [site('topgg'), option])])).waitForMessage();
    await expectSame(Promise.resolve(answer), english.t('setup.listing.apiTokenKept', { last4: '••••9876' }));
    expect(textOf(answer)).not.toContain(token);
    expect(viaCommand.servers.listings.topggToken(discord.guildId)).toBe(token);
    expect(rows(viaCommand)!.listings.find((l) => l.site === 'topgg')).toMatchObject({ apiToken: true, secret: true });
    const lines = auditLines();
    expect(lines.at(-1)).toContain(`**${english.t('setup.listing.apiTokenSaved.title')}**`);
    expect(lines.join('\n')).not.toContain(token);
  });

  it('reset: both forget the server, and the dashboard’s reset is audited in the channel it had', async () => {
    const confirm = await send(command([sub('reset')])).waitForMessage();
    const customId = encodeCustomId(Prefix.setupReset, RESET_CONFIRM);
    const pressed = send(buttonClick({ customId, message: confirm, member: admin }));
    await applyReset(viaDashboard, target(), dana);
    await pressed.waitForMessage();
    await waitFor(() => (rows(viaCommand) === undefined ? true : undefined));
    expect(commandErrors).toEqual([]);
    expect(rows(viaDashboard)).toBeUndefined();
    expect(auditLines().at(-1)).toContain('**Server forgotten**');
  });
});

/** Polls until `read` gives something, for answers that come as an update or a form. */
async function waitFor<T>(read: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  let value: T | undefined;
  // What is read (a row, an update on the stand-in) sends no event of its own.
  await pollUntil(() => (value = read()) !== undefined, 'an answer', { timeoutMs, everyMs: 20 });
  return value!;
}
