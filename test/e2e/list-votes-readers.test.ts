import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asMember, buttonIds, textOf } from '../../tools/conversation.js';
import {
  DEFAULTS,
  member,
  MODERATOR_PERMISSIONS,
  nextSnowflake,
  OptionType,
  slashCommand,
  type MemberPayload,
} from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { startWorld, type World } from '../../tools/world.js';
import { openStore, type Store, type StoreRoot } from '../../src/store/index.js';
import { listVote } from '../support/list-vote.js';

/*
 * Issue 34 item 4: /leaderboard, /votes and milestone roles read the one ledger. Other lists' votes
 * go into the bot's store the way the receiver records them (acceptVote with their site), from this
 * process: the bot reads them as it reads Guilds' own.
 */
const GUILD = DEFAULTS.guildId;
const HOUR = 3_600_000;
const admin = member({ permissions: MODERATOR_PERMISSIONS });
const thisMonth = () => new Date().toISOString().slice(0, 7);
/** A fixed wait; its one caller says why no event can be awaited instead. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let world: World;
let url: string;
let root: StoreRoot;
let store: Store;
beforeAll(async () => {
  let env: Record<string, string>;
  ({ url, ...env } = await receiverEnv({ EXPIRY_CHECK_SECONDS: '1' }));
  world = await startWorld({ env });
  root = await openStore({ kind: 'sqlite', file: env.DATABASE_URL!.slice('file:'.length) });
  store = root.forServer(GUILD);
});
afterAll(async () => {
  await root?.close();
  await world?.close();
  removeStoreFiles();
});

/** A vote on another list, recorded as the receiver records one. */
async function recordListVote(userId: string, site: string, weight = 1): Promise<void> {
  expect(await store.acceptVote(listVote(userId, site, Date.now(), { weight }))).toBe(true);
}

/** A Guilds vote through the webhook, waited for until the bot recorded it. */
async function guildsVote(userId: string): Promise<void> {
  world.sandbox.setVote(userId, HOUR);
  expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, userId))).toBe(200);
  await world.bot.waitForLog((l) => l.msg === 'vote accepted' && l.userId === userId, 10_000, 'the Guilds vote');
}

describe('/leaderboard over every list', () => {
  it('counts a member’s votes on Guilds and Top.gg together, and site: counts one list, page buttons kept', async () => {
    const both = nextSnowflake();
    await guildsVote(both);
    await recordListVote(both, 'topgg', 2);
    // Eleven more on discord.place: two pages of that list alone.
    const placeVoters = Array.from({ length: 11 }, () => nextSnowflake());
    for (const voter of placeVoters) await recordListVote(voter, 'discordplace');

    const asker = asMember(world.discord);
    const merged = textOf(await asker.command('leaderboard').waitForMessage());
    expect(merged).toContain(`1\\. <@${both}> (Voter) · 3 votes`);
    expect(merged).not.toContain('Only the votes on');

    const topgg = await asker.command('leaderboard', { site: 'topgg' }).waitForMessage();
    expect(textOf(topgg)).toContain('Only the votes on Top.gg.');
    expect(textOf(topgg)).toContain(`1\\. <@${both}> (Voter) · 2 votes`);
    expect(textOf(topgg)).not.toContain(placeVoters[0]!);

    const place = await asker.command('leaderboard', { site: 'discordplace' }).waitForMessage();
    expect(textOf(place)).not.toContain(both);
    const next = buttonIds(place).find((id) => id.startsWith(`leaderboard-page:${thisMonth()}:2`))!;
    expect(next).toBe(`leaderboard-page:${thisMonth()}:2:discordplace`);
    const second = await asker.click(place, next).waitForMessage();
    expect(textOf(second)).toContain('Only the votes on discord.place.');
    expect(textOf(second)).toContain('Page 2 of 2');
    expect(textOf(second)).not.toContain(both);

    const empty = textOf(await asker.command('leaderboard', { site: 'discollab' }).waitForMessage());
    expect(empty).toMatch(/No votes recorded in \w+ \d{4}\.\nOnly the votes on Discollab\./);
  });

  it('refuses a forged page button naming no list the bot knows', async () => {
    const asker = asMember(world.discord);
    const first = await asker.command('leaderboard').waitForMessage();
    const refusal = await asker.click(first, `leaderboard-page:${thisMonth()}:1:myspace`).waitForMessage();
    expect(refusal.embeds[0]?.title).toBe('Unknown action');
  });
});

describe('/votes over every list', () => {
  it("keeps Guilds' active votes and adds a line per other list with votes this month; site: shows one list", async () => {
    const asker = asMember(world.discord);
    const guildsOnly = nextSnowflake();
    world.sandbox.setVote(guildsOnly, HOUR);
    const message = await asker.command('votes').waitForMessage();
    const first = textOf(message);
    expect(first).toContain(`<@${guildsOnly}>`);
    // The first test's Top.gg and discord.place votes, this month.
    expect(first).toContain('Top.gg: 2 this month');
    expect(first).toContain('discord.place: 11 this month');
    expect(first).not.toContain('Discadia');
    // The server's counts, by the rule announcements use: Guilds' figures and every other list's votes.
    const [allTime, month] = (message.embeds[0]?.fields ?? []).map((f: { value: string }) =>
      Number(f.value.replace(/,/g, '')),
    );
    expect(first).toContain(
      `All lists: ${(allTime! + 2 + 11).toLocaleString('en-US')} in all, ${(month! + 2 + 11).toLocaleString('en-US')} this month`,
    );

    const guilds = await asker.command('votes', { site: 'guilds' }).waitForMessage();
    expect(guilds.embeds[0]?.title).toBe('Votes · Guilds');
    expect(textOf(guilds)).not.toContain('this month');

    const place = await asker.command('votes', { site: 'discordplace' }).waitForMessage();
    expect(place.embeds[0]?.title).toBe('Votes · discord.place');
    expect(place.embeds[0]?.fields?.map((f: { value: string }) => f.value)).toEqual(['11', '11', '11']);
    expect(textOf(place)).not.toContain(`<@${guildsOnly}>`);
    const next = buttonIds(place).find((id) => id.startsWith('votes-page:2'))!;
    expect(next).toBe('votes-page:2:discordplace');
    const second = await asker.click(place, next).waitForMessage();
    expect(second.embeds[0]?.title).toBe('Votes · discord.place');
    expect(textOf(second)).toContain('Page 2 of 2');
  });
});

describe('milestone roles over every list', () => {
  it('gives a milestone of 3 when a Top.gg vote (2) and a Guilds vote (1) reach it, not before', async () => {
    const regular = world.discord.addRole('Three votes');
    const answer = world.discord.sendInteraction(
      slashCommand({
        name: 'setup',
        member: admin,
        options: [
          {
            name: 'milestone',
            type: OptionType.Subcommand,
            options: [
              { name: 'role', type: OptionType.Role, value: regular },
              { name: 'votes', type: OptionType.Integer, value: 3 },
              { name: 'period', type: OptionType.String, value: 'month' },
            ],
          },
        ],
      }),
    );
    expect(textOf(await answer.waitForMessage())).toMatch(/Milestone set/);
    const voter: MemberPayload = member();
    world.discord.addMembers([voter]);
    const userId = voter.user.id;
    const given = () => world.discord.roleChanges.filter((c) => c.userId === userId && c.roleId === regular);

    await recordListVote(userId, 'topgg', 2);
    // A check runs every second: time for a wrong grant to show. No event can be awaited: a check that
    // finds nothing to do says so nowhere, and a member who reached a milestone as a sentinel would
    // add votes that /stats below counts.
    await pause(2_500);
    expect(given()).toEqual([]);
    await guildsVote(userId);
    await world.discord.waitUntil(() => given().length === 1, 10_000, 'the milestone role');
    expect(given()[0]).toMatchObject({ change: 'add', reason: expect.stringMatching(/3 recorded votes/) });
  });
});

describe('/stats over every list', () => {
  it('stacks the votes by list, names each list under the days, and counts them all in the days', async () => {
    const moderator = member({ permissions: MODERATOR_PERMISSIONS });
    const answer = await world.discord
      .sendInteraction(
        slashCommand({
          name: 'stats',
          member: moderator,
          options: [{ name: 'days', type: OptionType.Integer, value: 1 }],
        }),
      )
      .waitForMessage(15_000);
    const text = answer.embeds[0]!.description as string;
    // Today: the Guilds votes of the tests above (2), Top.gg's 2 + 2 (weights), discord.place's 11.
    expect(text).toMatch(/: 17\n/);
    expect(text).toContain('By list:\nGuilds: 2\nTop.gg: 4\ndiscord.place: 11');
    expect(answer.attachments[0]?.filename).toBe('stats.png');
  });
});
