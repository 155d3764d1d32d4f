import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, type Client, type Guild, type Interaction } from 'discord.js';
import { execute } from '../../commands/setup.js';
import { createDiscordClient } from '../../src/bot/client.js';
import { ReplyGuard } from '../../src/bot/reply-guard.js';
import { UserFacingError } from '../../src/bot/user-error.js';
import { parseConfig } from '../../src/config/bot.js';
import { english } from '../../src/i18n/index.js';
import type { BaseContext } from '../../src/runtime/context.js';
import { Servers } from '../../src/servers/servers.js';
import { applyAnnounce } from '../../src/setup/announce.js';
import type { ChangeResult, ChangeTarget } from '../../src/setup/change.js';
import { applyChannel } from '../../src/setup/channel.js';
import { applyMilestone } from '../../src/setup/milestone.js';
import { applyRole } from '../../src/setup/role.js';
import { applyStreak } from '../../src/setup/streak.js';
import { applyVoteUrl } from '../../src/setup/vote-url.js';
import { ShardOwnership } from '../../src/shards/ownership.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { textOf } from '../../tools/conversation.js';
import {
  member,
  MODERATOR_PERMISSIONS,
  OptionType,
  slashCommand,
  startDiscordStandIn,
  textChannelIdFor,
  voterRoleIdFor,
  type CommandOption,
  type DiscordStandIn,
} from '../../tools/discord-standin/index.js';
import { capturedLog, type LogLine } from '../support/captured-log.js';
import { VALID_ENV } from '../support/config-env.js';
import type { Actor } from '../../src/bot/actor.js';

// The same server kept in two stores: one changed with /setup through discord.js and the stand-in,
// the other by the dashboard's calls; after every change the two must hold the same settings.
let discord: DiscordStandIn;
let client: Client;
let guild: Guild;
let milestoneRoleId: string;
const roots: StoreRoot[] = [];
const commandErrors: unknown[] = [];
let viaCommand: BaseContext;
let viaDashboard: BaseContext;
let dashboardLog: LogLine[];

const admin = member({ permissions: MODERATOR_PERMISSIONS, nick: 'Casey' });
const dana: Actor = { userId: '330000000000000003', name: 'Dana', via: 'dashboard', locale: 'en-US' };

async function contextOn(logger: BaseContext['logger']): Promise<BaseContext> {
  const root = await openStore({ kind: 'sqlite', file: ':memory:' });
  roots.push(root);
  const servers = new Servers(root, undefined, undefined);
  await servers.load();
  // The servers come from the store alone (no environment server): nothing is refused as set by .env.
  const config = parseConfig({ ...VALID_ENV, DISCORD_API_URL: discord.apiUrl, DISCORD_GUILD_ID: discord.guildId });
  const unused = () => Promise.reject(new Error('not used by these changes'));
  return {
    config,
    logger,
    replyGuard: new ReplyGuard(),
    now: () => new Date(),
    servers,
    setup: {
      changes: servers,
      checkService: unused,
      forgetClient: () => {},
      lastDeliveryAt: unused,
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

beforeAll(async () => {
  // No case here is about pacing: the audit channel's sixth line would wait out Discord's 5-per-5-s window.
  discord = await startDiscordStandIn({ channelRateLimits: false });
  milestoneRoleId = discord.addRole('Regular', { position: 1 });
  const config = parseConfig({ ...VALID_ENV, DISCORD_API_URL: discord.apiUrl, DISCORD_GUILD_ID: discord.guildId });
  client = createDiscordClient(config, ShardOwnership.everything());
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(discord.token);
  await ready;
  guild = client.guilds.cache.get(discord.guildId)!;
  viaCommand = await contextOn(capturedLog().logger);
  const captured = capturedLog();
  dashboardLog = captured.lines;
  viaDashboard = await contextOn(captured.logger);
  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    if (interaction.isChatInputCommand()) execute(interaction, viaCommand).catch((err) => commandErrors.push(err));
  });
});

afterAll(async () => {
  await client?.destroy();
  for (const root of roots) await root.close();
  await discord?.close();
});

/** `/setup <sub>` as the admin sends it; the answer's text. */
async function setup(sub: string, options: CommandOption[]): Promise<string> {
  const command = { name: sub, type: OptionType.Subcommand, options };
  const handle = discord.sendInteraction(slashCommand({ name: 'setup', member: admin, options: [command] }));
  return textOf(await handle.waitForMessage());
}

const stored = (ctx: BaseContext) => ctx.servers.record(discord.guildId)?.settings;
const milestones = async (ctx: BaseContext) =>
  (await ctx.setup.milestones(discord.guildId).milestones()).map(({ createdAt: _at, ...m }) => m);

const target = (): ChangeTarget => ({ guildId: discord.guildId, guild });
const option = (name: string, type: number, value: string | number | boolean): CommandOption => ({
  name,
  type,
  value,
});

type Apply = (ctx: BaseContext, target: ChangeTarget, actor: Actor) => Promise<ChangeResult>;

/** Each change as /setup takes it and as the dashboard calls it, in an order that builds on itself. */
const CHANGES: ReadonlyArray<{ name: string; sub: string; options: () => CommandOption[]; apply: Apply }> = [
  {
    name: 'the audit channel',
    sub: 'channel',
    options: () => [
      option('kind', OptionType.String, 'audit'),
      option('target', OptionType.Channel, textChannelIdFor(discord.guildId)),
    ],
    apply: (ctx, at, actor) =>
      applyChannel(ctx, at, { kind: 'audit', channelId: textChannelIdFor(discord.guildId) }, actor),
  },
  {
    name: 'the review channel',
    sub: 'channel',
    options: () => [
      option('kind', OptionType.String, 'review'),
      option('target', OptionType.Channel, textChannelIdFor(discord.guildId)),
    ],
    apply: (ctx, at, actor) =>
      applyChannel(ctx, at, { kind: 'review', channelId: textChannelIdFor(discord.guildId) }, actor),
  },
  {
    name: 'announcements turned off',
    sub: 'channel',
    options: () => [option('kind', OptionType.String, 'votes')],
    apply: (ctx, at, actor) => applyChannel(ctx, at, { kind: 'votes', channelId: undefined }, actor),
  },
  {
    name: 'the voter role',
    sub: 'role',
    options: () => [option('voter', OptionType.Role, voterRoleIdFor(discord.guildId))],
    apply: (ctx, at, actor) => applyRole(ctx, at, { voter: voterRoleIdFor(discord.guildId) }, actor),
  },
  {
    name: 'a moderator role',
    sub: 'role',
    options: () => [option('moderators', OptionType.Role, discord.moderatorRoleId)],
    apply: (ctx, at, actor) => applyRole(ctx, at, { moderators: discord.moderatorRoleId }, actor),
  },
  {
    name: 'the vote link',
    sub: 'vote-url',
    options: () => [option('url', OptionType.String, '  https://guilds.me/server/42  ')],
    apply: (ctx, at, actor) => applyVoteUrl(ctx, at, { url: '  https://guilds.me/server/42  ' }, actor),
  },
  {
    name: 'the announcement template and pings',
    sub: 'announce',
    options: () => [
      option('template', OptionType.String, '{user} voted! {streak} in a row'),
      option('ping', OptionType.Boolean, true),
      option('every-list', OptionType.Boolean, false),
    ],
    apply: (ctx, at, actor) =>
      applyAnnounce(ctx, at, { template: '{user} voted! {streak} in a row', ping: true, everyList: false }, actor),
  },
  {
    name: 'the streak grace',
    sub: 'streak',
    options: () => [option('grace-hours', OptionType.Integer, 12)],
    apply: (ctx, at, actor) => applyStreak(ctx, at, { graceHours: 12 }, actor),
  },
  {
    name: 'a milestone role',
    sub: 'milestone',
    options: () => [
      option('role', OptionType.Role, milestoneRoleId),
      option('votes', OptionType.Integer, 5),
      option('period', OptionType.String, 'all'),
    ],
    apply: (ctx, at, actor) => applyMilestone(ctx, at, { roleId: milestoneRoleId, votes: 5, period: 'all' }, actor),
  },
  {
    name: 'the moderator role removed',
    sub: 'role',
    options: () => [option('remove', OptionType.Role, discord.moderatorRoleId)],
    apply: (ctx, at, actor) => applyRole(ctx, at, { remove: discord.moderatorRoleId }, actor),
  },
  {
    name: 'the built-in announcement back',
    sub: 'announce',
    options: () => [option('clear', OptionType.Boolean, true)],
    apply: (ctx, at, actor) => applyAnnounce(ctx, at, { clear: true }, actor),
  },
];

const auditLines = () =>
  discord
    .channelMessages(textChannelIdFor(discord.guildId))
    .map((message) => message.content)
    .filter((content) => content.includes('on the dashboard'));

describe('a change made with /setup and the same change made on the dashboard', () => {
  it.each(CHANGES.map((change, index) => [change.name, index] as const))(
    'leave the store identical: %s',
    async (_name, index) => {
      const change = CHANGES[index]!;
      const answer = await setup(change.sub, change.options());
      expect(commandErrors).toEqual([]);
      const result = await change.apply(viaDashboard, target(), dana);
      // The dashboard's result is what /setup's answer says.
      expect(answer).toContain(english.t(`${result.key}.title`));
      expect(stored(viaDashboard)).toEqual(stored(viaCommand));
      expect(stored(viaCommand)).toBeDefined();
      expect(await milestones(viaDashboard)).toEqual(await milestones(viaCommand));
    },
  );

  it('ends with every setting changed and the milestone in both stores', async () => {
    expect(stored(viaCommand)).toMatchObject({
      auditChannelId: textChannelIdFor(discord.guildId),
      reviewChannelId: textChannelIdFor(discord.guildId),
      voterRoleId: voterRoleIdFor(discord.guildId),
      voteUrl: 'https://guilds.me/server/42',
      announcePing: true,
      announceEveryList: false,
      streakGraceHours: 12,
    });
    expect(await milestones(viaCommand)).toEqual([expect.objectContaining({ roleId: milestoneRoleId, votes: 5 })]);
  });

  it("audits the dashboard's changes in the audit channel with the member's name, and none of /setup's", () => {
    const lines = auditLines();
    expect(lines).toHaveLength(CHANGES.length);
    for (const line of lines) expect(line).toMatch(/^Changed on the dashboard by <@330000000000000003> \(Dana\): \*\*/);
    expect(lines[5]).toContain('**Vote link set**: The Vote now button opens https://guilds.me/server/42');
    expect(lines.join('\n')).not.toContain(admin.user.id);
    expect(dashboardLog.filter((line) => line.msg === 'setting changed on the dashboard')).toHaveLength(CHANGES.length);
  });

  it('refuses bad input from the dashboard as /setup does, changing and auditing nothing', async () => {
    const before = stored(viaDashboard);
    const audited = auditLines().length;
    const refused = applyVoteUrl(viaDashboard, target(), { url: 'http://guilds.me/server/42' }, dana);
    await expect(refused).rejects.toThrow(UserFacingError);
    await expect(refused).rejects.toMatchObject({ key: 'refusal.badVoteUrl' });
    await expect(applyStreak(viaDashboard, target(), { graceHours: -1 }, dana)).rejects.toMatchObject({
      key: 'refusal.badGraceHours',
    });
    await expect(applyRole(viaDashboard, target(), {}, dana)).rejects.toMatchObject({ key: 'refusal.roleChoice' });
    expect(stored(viaDashboard)).toEqual(before);
    expect(auditLines()).toHaveLength(audited);
  });
});
