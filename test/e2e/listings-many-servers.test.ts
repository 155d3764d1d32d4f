import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { textOf } from '../../tools/conversation.js';
import {
  buttonClick,
  member,
  modalSubmit,
  nextSnowflake,
  OptionType,
  slashCommand,
  textChannelIdFor,
  type CommandOption,
  type Message,
  voterRoleIdFor,
} from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { post, requestAs, sendAs } from '../../tools/list-senders/send.js';
import { receiverEnv, removeStoreFiles } from '../../tools/receiver-env.js';
import { startBot, type LogLine } from '../../tools/bot-process.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';
import { group, setupAsAdmin, sub } from '../support/multi-server.js';

// Issue 34 in many-server mode: listings added from Discord with /setup listing, through the built
// bot, the Discord stand-in and the list senders. A is on Top.gg and discord.place, B on
// discord.place only; nothing may cross between them.
const A = nextSnowflake();
const B = nextSnowflake();
const KEY_A = { apiKey: 'listing-a-api-key-1357', appId: 'listing-a-app-id-2468' };
const KEY_B = { apiKey: 'listing-b-api-key-9753', appId: 'listing-b-app-id-8642' };
const PUBLIC_URL = 'https://bot.example.com';
const SECRETS_KEY = randomBytes(32).toString('base64');
const TOPGG_SECRET_A = `whs_${randomBytes(18).toString('hex')}`;

let world: World;
let receiverUrl: string;
/** The settings the world's bot was started with, for the one started after it. */
let botEnv: Record<string, string>;
let asAdmin: ReturnType<typeof setupAsAdmin>;
/** Every listing secret seen, to look for in the log at the end. */
const secrets: string[] = [TOPGG_SECRET_A];
/** discord.place's secret per server, read from /setup listing add's answer. */
const discordplace = new Map<string, string>();
const guildsToken = new Map<string, string>();

beforeAll(async () => {
  const { url, ...env } = await receiverEnv({ WEBHOOK_TOKEN: '', WEBHOOK_PUBLIC_URL: PUBLIC_URL });
  receiverUrl = url;
  botEnv = {
    ...env,
    DISCORD_GUILD_ID: '',
    SERVICE_API_KEY: '',
    SERVICE_APP_ID: '',
    MODERATOR_ROLE_IDS: '',
    REVIEW_LOG_CHANNEL_ID: '',
    SECRETS_KEY,
    LOG_LEVEL: 'debug',
  };
  world = await startWorld({
    sandbox: { ...KEY_A, moreCredentials: [KEY_B] },
    discord: { guildId: A, otherGuildIds: [B] },
    env: botEnv,
  });
  asAdmin = setupAsAdmin(world.discord);
}, 60_000);
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

const setup = (guildId: string, options: CommandOption[]) => asAdmin.setup(guildId, options);
const listing = (name: string, options: CommandOption[] = []) => group('listing', name, options);
const site = (id: string): CommandOption => ({ name: 'site', type: OptionType.String, value: id });

const fieldsOf = (message: Message) => (message.embeds[0]!.fields ?? []) as Array<{ name: string; value: string }>;
const field = (message: Message, name: string) => fieldsOf(message).find((f) => f.name === name)?.value ?? '';
const unquote = (text: string) => text.replace(/`/g, '');
const posts = (guildId: string) => world.discord.channelMessages(textChannelIdFor(guildId));
const announced = (guildId: string, userId: string) => posts(guildId).filter((m) => textOf(m).includes(userId));
const addressOf = (guildId: string, id: string) => `${receiverUrl}/${guildId}/${id}`;
/** Log lines from the `since`-th on that match: what was logged after a point of the test. */
const loggedSince = (since: number, match: (line: LogLine) => boolean) => world.bot.logs.slice(since).filter(match);

/**
 * Every delivery stored before this one handled: the inbox takes them oldest first. It posts nothing
 * (a test delivery from Top.gg to A, which A's status shows anyway), so no lane waits on it.
 */
async function inboxCaughtUp(): Promise<void> {
  const since = world.bot.logs.length;
  const test = { guildId: A, memberId: nextSnowflake(), test: true };
  expect((await sendAs('topgg', { url: addressOf(A, 'topgg'), secret: TOPGG_SECRET_A, vote: test })).status).toBe(200);
  const handled = (l: LogLine) => l.msg === 'test delivery from a list received' && l.guildId === A;
  await world.bot.waitForLog(() => loggedSince(since, handled).length > 0, 10_000, 'a later delivery handled');
}

async function setUp(guildId: string, key: { apiKey: string; appId: string }): Promise<void> {
  await asAdmin.credentials(guildId, key);
  await setup(
    guildId,
    sub('channel', [
      { name: 'kind', type: OptionType.String, value: 'votes' },
      { name: 'target', type: OptionType.Channel, value: textChannelIdFor(guildId) },
    ]),
  ).waitForMessage();
  const webhook = await setup(guildId, sub('webhook')).waitForMessage();
  guildsToken.set(guildId, unquote(field(webhook, 'Token')));
}

/** `/setup listing add site:discordplace`: the secret the bot made, shown whole this once. */
async function addDiscordplace(guildId: string): Promise<Message> {
  const answer = await setup(guildId, listing('add', [site('discordplace')])).waitForMessage();
  const secret = unquote(field(answer, 'Secret'));
  discordplace.set(guildId, secret);
  secrets.push(secret);
  return answer;
}

function askVote(guildId: string, memberId: string) {
  return world.discord
    .sendInteraction(slashCommand({ name: 'vote', guildId, member: member({ id: memberId }) }))
    .waitForMessage(10_000);
}

describe('/setup listing in two servers at once', () => {
  beforeAll(async () => {
    await setUp(A, KEY_A);
    await setUp(B, KEY_B);
  }, 60_000);

  it("adds Top.gg in A: the address, what to paste where, and the whs_ secret through the button's form", async () => {
    const answer = await setup(A, listing('add', [site('topgg')])).waitForMessage();
    expect(unquote(field(answer, 'Address'))).toBe(`${PUBLIC_URL}/webhook/${A}/topgg`);
    expect(textOf(answer)).toContain('**Webhooks**');
    const button = answer.components?.[0]?.components?.[0] as { custom_id?: string } | undefined;
    expect(button?.custom_id).toBe('setup-listing:topgg');
    const modal = await world.discord
      .sendInteraction(
        buttonClick({ customId: 'setup-listing:topgg', message: answer, member: asAdmin.admin, guildId: A }),
      )
      .waitForModal();
    const saved = await world.discord
      .sendInteraction(
        modalSubmit({
          customId: modal.custom_id,
          guildId: A,
          member: asAdmin.admin,
          fields: { secret: TOPGG_SECRET_A },
        }),
      )
      .waitForMessage(10_000);
    expect(textOf(saved)).toContain('Secret saved');
    expect(textOf(saved)).toContain(TOPGG_SECRET_A.slice(-4));
    expect(textOf(saved)).not.toContain(TOPGG_SECRET_A);
  });

  it('refuses a secret with spaces in the form, saying what to do, and keeps the one saved', async () => {
    const answer = await setup(
      A,
      listing('add', [site('topgg'), { name: 'rotate', type: OptionType.Boolean, value: true }]),
    ).waitForMessage();
    const modal = await world.discord
      .sendInteraction(
        buttonClick({ customId: 'setup-listing:topgg', message: answer, member: asAdmin.admin, guildId: A }),
      )
      .waitForModal();
    const refused = await world.discord
      .sendInteraction(
        modalSubmit({
          customId: modal.custom_id,
          guildId: A,
          member: asAdmin.admin,
          fields: { secret: 'whs_not one word' },
        }),
      )
      .waitForMessage(10_000);
    expect(textOf(refused)).toContain('Nothing saved');
    expect(textOf(refused)).toContain('without spaces');
    const kept = await setup(A, listing('add', [site('topgg')])).waitForMessage();
    expect(field(kept, 'Secret')).toContain(TOPGG_SECRET_A.slice(-4));
  });

  it('adds discord.place in A and in B, each with a secret of its own shown once, then only its end', async () => {
    const inA = await addDiscordplace(A);
    expect(unquote(field(inA, 'Address'))).toBe(`${PUBLIC_URL}/webhook/${A}/discordplace`);
    expect(textOf(inA)).toContain('shown only this once');
    await addDiscordplace(B);
    expect(discordplace.get(A)).toMatch(/^[\w-]{32}$/);
    expect(discordplace.get(B)).not.toBe(discordplace.get(A));
    const again = await setup(A, listing('add', [site('discordplace')])).waitForMessage();
    expect(textOf(again)).not.toContain(discordplace.get(A)!);
    expect(field(again, 'Secret')).toContain(discordplace.get(A)!.slice(-4));
  });

  it("announces each list's votes in the server they are for, and nowhere else", async () => {
    const voterA = nextSnowflake();
    const voterB = nextSnowflake();
    const topgg = await sendAs('topgg', {
      url: addressOf(A, 'topgg'),
      secret: TOPGG_SECRET_A,
      vote: { guildId: A, memberId: voterA },
    });
    expect(topgg.status).toBe(200);
    const dp = await sendAs('discordplace', {
      url: addressOf(B, 'discordplace'),
      secret: discordplace.get(B)!,
      vote: { guildId: B, memberId: voterB },
    });
    expect(dp.status).toBe(200);
    await world.discord.waitUntil(() => announced(A, voterA).length === 1, 10_000, "A's Top.gg vote announced");
    await world.discord.waitUntil(() => announced(B, voterB).length === 1, 10_000, "B's discord.place vote announced");
    // Each delivery was handled once, as a vote in its own server (a server's lines carry its id):
    // neither was queued for the other's channel.
    const acceptedIn = (userId: string) =>
      world.bot.logs.filter((l) => l.msg === 'vote accepted' && l.userId === userId).map((l) => l.guildId);
    expect(acceptedIn(voterA)).toEqual([A]);
    expect(acceptedIn(voterB)).toEqual([B]);
    expect(announced(B, voterA)).toEqual([]);
    expect(announced(A, voterB)).toEqual([]);
  });

  it("refuses another server's secret with 401 and a list a server is not on with 404, storing nothing", async () => {
    const voter = nextSnowflake();
    const vote = { guildId: A, memberId: voter };
    // A's Top.gg address signed with B's secret; A's discord.place address with B's secret.
    expect(await post(requestAs('topgg', { url: addressOf(A, 'topgg'), secret: discordplace.get(B)!, vote }))).toBe(
      401,
    );
    expect(
      await post(requestAs('discordplace', { url: addressOf(A, 'discordplace'), secret: discordplace.get(B)!, vote })),
    ).toBe(401);
    const inB = { guildId: B, memberId: voter };
    expect(await post(requestAs('topgg', { url: addressOf(B, 'topgg'), secret: TOPGG_SECRET_A, vote: inB }))).toBe(404);
    await inboxCaughtUp();
    expect(world.bot.logs.some((line) => line.userId === voter)).toBe(false);
    expect([...announced(A, voter), ...announced(B, voter)]).toEqual([]);
  });

  it('shows a member who voted on Guilds, Top.gg and discord.place in A three lines in /vote; B sees none of it', async () => {
    const voter = nextSnowflake();
    // Guilds' line comes from the service, as today: it has the vote its webhook reports.
    world.sandbox.setVote(voter, 12 * 3_600_000);
    expect(await deliver(`${receiverUrl}/${A}`, guildsToken.get(A)!, voteEvent(A, voter))).toBe(200);
    const vote = { guildId: A, memberId: voter };
    expect((await sendAs('topgg', { url: addressOf(A, 'topgg'), secret: TOPGG_SECRET_A, vote })).status).toBe(200);
    const dpSecret = discordplace.get(A)!;
    expect((await sendAs('discordplace', { url: addressOf(A, 'discordplace'), secret: dpSecret, vote })).status).toBe(
      200,
    );
    const counted = () =>
      world.bot.logs.filter((l) => l.msg === 'vote accepted' && l.userId === voter).map((l) => l.site ?? 'guilds');
    await world.discord.waitUntil(() => counted().length === 3, 10_000, 'the three votes counted');
    expect(counted().sort()).toEqual(['discordplace', 'guilds', 'topgg']);

    const inA = await askVote(A, voter);
    const lines = field(inA, 'Each list').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\*\*Guilds\*\*: vote again <t:\d+:R>$/);
    expect(lines[1]).toMatch(/^\*\*Top\.gg\*\*: voted <t:\d+:R>, vote again <t:\d+:R>$/);
    expect(lines[2]).toMatch(/^\*\*discord\.place\*\*: voted <t:\d+:R>, vote again <t:\d+:R>$/);
    const buttons = (inA.components ?? []).flatMap((row: { components?: unknown[] }) => row.components ?? []) as Array<{
      url?: string;
    }>;
    expect(buttons.map((b) => b.url)).toContain(`https://top.gg/discord/servers/${A}/vote`);

    const inB = await askVote(B, voter);
    // One stand-in service holds every server's Guilds votes: only the lists' lines are B's own.
    const linesB = field(inB, 'Each list').split('\n');
    expect(linesB).toHaveLength(2);
    expect(linesB[1]).toBe('**discord.place**: can vote now');
    expect(announced(B, voter)).toEqual([]);
  });

  it("shows Top.gg's test in A's /setup status and /setup listing list, never announced; B's shows none", async () => {
    const tester = nextSnowflake();
    const test = { guildId: A, memberId: tester, test: true };
    const since = world.bot.logs.length;
    expect((await sendAs('topgg', { url: addressOf(A, 'topgg'), secret: TOPGG_SECRET_A, vote: test })).status).toBe(
      200,
    );
    await world.bot.waitForLog(
      () => loggedSince(since, (l) => l.msg === 'test delivery from a list received').length > 0,
      10_000,
      'the test',
    );
    const statusOf = async (guildId: string) => {
      const handle = setup(guildId, sub('status'));
      return textOf(await handle.waitForMessage(15_000));
    };
    const inA = await statusOf(A);
    expect(inA).toMatch(/✔ \*\*Top\.gg votes\*\*: last delivery <t:\d+:R>; test received ✔ <t:\d+:R>/);
    expect(inA).toMatch(/✔ \*\*discord\.place votes\*\*: last delivery <t:\d+:R>; no test yet/);
    expect(await statusOf(B)).not.toContain('Top.gg');
    const list = await setup(A, listing('list')).waitForMessage();
    expect(fieldsOf(list).map((f) => f.name)).toEqual(['Top.gg', 'discord.place']);
    expect(field(list, 'Top.gg')).toMatch(/Last test: test received ✔ <t:\d+:R>/);
    // A vote in A delivered after the test is announced: a vote queued before it would be too (one lane, oldest first).
    const later = nextSnowflake();
    const vote = { guildId: A, memberId: later };
    expect((await sendAs('topgg', { url: addressOf(A, 'topgg'), secret: TOPGG_SECRET_A, vote })).status).toBe(200);
    await world.discord.waitUntil(() => announced(A, later).length === 1, 10_000, 'a later vote announced in A');
    expect(announced(A, tester)).toEqual([]);
  });

  it('removes discord.place from B: its deliveries are then 404, and A keeps its own', async () => {
    const removed = await setup(B, listing('remove', [site('discordplace')])).waitForMessage();
    expect(textOf(removed)).toContain('List removed');
    const voter = nextSnowflake();
    const request = (guildId: string) =>
      requestAs('discordplace', {
        url: addressOf(guildId, 'discordplace'),
        secret: discordplace.get(guildId)!,
        vote: { guildId, memberId: voter },
      });
    expect(await post(request(B))).toBe(404);
    expect(await post(request(A))).toBe(200);
    const again = await setup(B, listing('remove', [site('discordplace')])).waitForMessage();
    expect(textOf(again)).toContain('Nothing changed');
  });

  it('never writes a listing secret in the log', () => {
    const log = JSON.stringify(world.bot.logs) + world.bot.stderr();
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});

// The "Done when" in many-server mode: one member voting on Guilds, Top.gg and a third list
// in A is counted, shown and rewarded there once per list, and B (its own listings) sees none of it.
describe("issue 34's done-when across two servers", () => {
  const HOUR = 3_600_000;
  const discollab = new Map<string, string>();
  const voteHours = (hours: number): CommandOption => ({ name: 'vote-hours', type: OptionType.Integer, value: hours });
  const statusOf = async (guildId: string) => textOf(await setup(guildId, sub('status')).waitForMessage(15_000));
  const leaderboardOf = async (guildId: string) =>
    textOf(
      await world.discord
        .sendInteraction(slashCommand({ name: 'leaderboard', guildId, member: member() }))
        .waitForMessage(10_000),
    );

  it("sets discord.place's vote length in A with vote-hours, keeping its secret; refused for Top.gg", async () => {
    const refused = await setup(A, listing('add', [site('topgg'), voteHours(5)])).waitForMessage();
    expect(textOf(refused)).toContain("Top.gg sends each vote's length itself");
    const topgg = await setup(A, listing('add', [site('topgg')])).waitForMessage();
    expect(field(topgg, 'Votes run')).toBe('as each vote says (the site sends it)');
    expect(field(topgg, 'Secret')).toContain(TOPGG_SECRET_A.slice(-4));

    const before = await setup(A, listing('list')).waitForMessage();
    expect(field(before, 'discord.place')).toContain("Votes run: 24 h (the site's default)");
    const set = await setup(A, listing('add', [site('discordplace'), voteHours(1)])).waitForMessage();
    expect(field(set, 'Votes run')).toBe('1 h (set)');
    expect(field(set, 'Secret')).toContain(discordplace.get(A)!.slice(-4));
    expect(textOf(set)).not.toContain(discordplace.get(A)!);

    // The receiver takes the same secret and ends the vote an hour after it came.
    const voter = nextSnowflake();
    const sent = Date.now();
    const vote = { guildId: A, memberId: voter };
    const dp = await sendAs('discordplace', { url: addressOf(A, 'discordplace'), secret: discordplace.get(A)!, vote });
    expect(dp.status).toBe(200);
    await world.discord.waitUntil(() => announced(A, voter).length === 1, 10_000, 'the discord.place vote announced');
    const line = field(await askVote(A, voter), 'Each list')
      .split('\n')
      .find((l) => l.startsWith('**discord.place**'))!;
    const again = Number(/vote again <t:(\d+):R>/.exec(line)?.[1]) * 1000;
    expect(Math.abs(again - (sent + HOUR))).toBeLessThan(30_000);

    expect(await statusOf(A)).toMatch(
      /\*\*discord\.place votes\*\*: last delivery <t:\d+:R>; no test yet; votes run 1 h \(set\)/,
    );
    expect(field(await setup(A, listing('list')).waitForMessage(), 'discord.place')).toContain('Votes run: 1 h (set)');
  });

  it('counts a vote on each of three lists as 3 in A, gives the milestone and the voter role until the last ends; B sees none', async () => {
    // discord.place's votes run at least an hour (vote-hours is 1 to 168), too long to watch the voter
    // role go: A's third list here is Discollab, whose deliveries carry a short length (vote_again).
    await setup(A, listing('remove', [site('discordplace')])).waitForMessage();
    for (const guildId of [A, B]) {
      const answer = await setup(guildId, listing('add', [site('discollab')])).waitForMessage();
      discollab.set(guildId, unquote(field(answer, 'Secret')));
      secrets.push(discollab.get(guildId)!);
      const voterRole = voterRoleIdFor(guildId);
      const roleSet = await setup(guildId, sub('role', [{ name: 'voter', type: OptionType.Role, value: voterRole }]));
      expect(textOf(await roleSet.waitForMessage())).toContain(`<@&${voterRole}>`);
    }
    const threeLists = world.discord.addRole('Three lists', { guildId: A });
    const oneInB = world.discord.addRole('One vote in B', { guildId: B });
    const milestone = (guildId: string, roleId: string, votes: number) =>
      setup(
        guildId,
        sub('milestone', [
          { name: 'role', type: OptionType.Role, value: roleId },
          { name: 'votes', type: OptionType.Integer, value: votes },
          { name: 'period', type: OptionType.String, value: 'month' },
        ]),
      ).waitForMessage();
    expect(textOf(await milestone(A, threeLists, 3))).toMatch(/Milestone set/);
    expect(textOf(await milestone(B, oneInB, 1))).toMatch(/Milestone set/);

    const voter = member();
    const id = voter.user.id;
    world.discord.addMembers([voter], A);
    world.discord.addMembers([voter], B);
    const changesIn = (guildId: string) =>
      world.discord.roleChanges.filter((c) => c.userId === id && c.guildId === guildId);
    const voterRoleChanges = () => changesIn(A).filter((c) => c.roleId === voterRoleIdFor(A));

    const started = Date.now();
    const vote = { guildId: A, memberId: id };
    world.sandbox.setVote(id, 2_000);
    expect(await deliver(`${receiverUrl}/${A}`, guildsToken.get(A)!, voteEvent(A, id))).toBe(200);
    const topgg = await sendAs('topgg', {
      url: addressOf(A, 'topgg'),
      secret: TOPGG_SECRET_A,
      vote: { ...vote, lengthMs: 4_000 },
    });
    const third = await sendAs('discollab', {
      url: addressOf(A, 'discollab'),
      secret: discollab.get(A)!,
      vote: { ...vote, lengthMs: 6_000 },
    });
    expect([topgg.status, third.status]).toEqual([200, 200]);

    await world.discord.waitUntil(() => voterRoleChanges().length >= 1, 10_000, 'the voter role given');
    expect(voterRoleChanges()[0]).toMatchObject({ change: 'add' });
    await world.discord.waitUntil(
      () => changesIn(A).some((c) => c.roleId === threeLists),
      10_000,
      'the milestone role at 3 votes',
    );

    const lines = field(await askVote(A, id), 'Each list').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\*\*Guilds\*\*: /);
    expect(lines[1]).toMatch(/^\*\*Top\.gg\*\*: voted <t:\d+:R>, vote again <t:\d+:R>$/);
    expect(lines[2]).toMatch(/^\*\*Discollab\*\*: voted <t:\d+:R>, vote again <t:\d+:R>$/);
    expect(await leaderboardOf(A)).toMatch(new RegExp(`<@${id}>.* · 3 votes`));

    await world.discord.waitUntil(() => voterRoleChanges().length >= 2, 20_000, 'the voter role removed');
    expect(voterRoleChanges().map((c) => c.change)).toEqual(['add', 'remove']);
    // Not when Guilds' (2 s) or Top.gg's (4 s) vote ended: when Discollab's (6 s) did.
    expect(voterRoleChanges()[1]!.at - started).toBeGreaterThanOrEqual(5_000);

    // B has listings of its own, a voter role and a milestone at 1: none of A's votes reach it.
    expect(changesIn(B)).toEqual([]);
    expect(announced(B, id)).toEqual([]);
    expect(await leaderboardOf(B)).not.toContain(id);
  }, 30_000);

  it("never writes a listing secret in the log, Discollab's included", () => {
    const log = JSON.stringify(world.bot.logs) + world.bot.stderr();
    for (const secret of secrets) expect(log).not.toContain(secret);
  });

  it("keeps A's Top.gg listing across a restart: a new process takes the same secret", async () => {
    await world.bot.stop('SIGTERM');
    const restarted = startBot({ ...botEnvironment(world.discord, world.sandbox), ...botEnv });
    try {
      await restarted.waitForLog((l) => l.msg === 'ready', 20_000, 'ready after the restart');
      const voter = nextSnowflake();
      const vote = { guildId: A, memberId: voter };
      const sent = await sendAs('topgg', { url: addressOf(A, 'topgg'), secret: TOPGG_SECRET_A, vote });
      expect(sent.status).toBe(200);
      await world.discord.waitUntil(() => announced(A, voter).length === 1, 15_000, 'announced after the restart');
    } finally {
      await restarted.stop('SIGTERM');
    }
  }, 30_000);
});
