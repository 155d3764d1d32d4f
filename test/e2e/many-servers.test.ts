import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { textOf } from '../../tools/conversation.js';
import {
  buttonClick,
  member,
  MODERATOR_PERMISSIONS,
  modalSubmit,
  nextSnowflake,
  OptionType,
  slashCommand,
  textChannelIdFor,
  type CommandOption,
  type InteractionHandle,
  type MemberPayload,
  type Message,
} from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles } from '../../tools/receiver-env.js';
import { VOTER } from '../../tools/seed.js';
import { Permission, voterRoleIdFor } from '../../tools/discord-standin/index.js';
import { botRoleIdFor } from '../../tools/discord-standin/fixtures.js';
import { startWorld, type World } from '../../tools/world.js';

// Three servers, one bot, no DISCORD_GUILD_ID: each is set up with /setup and keeps its own key.
const A = nextSnowflake();
const B = nextSnowflake();
const C = nextSnowflake();
const KEY_A = { apiKey: 'server-a-api-key-7421', appId: 'server-a-app-id-3390' };
const KEY_B = { apiKey: 'server-b-api-key-5518', appId: 'server-b-app-id-6604' };
const KEY_C = { apiKey: 'server-c-api-key-9127', appId: 'server-c-app-id-2283' };
const PUBLIC_URL = 'https://bot.example.com';
const SECRETS_KEY = randomBytes(32).toString('base64');

let world: World;
let receiverUrl: string;
/** Each server's webhook token, as /setup webhook showed it the first time. */
const tokens = new Map<string, string>();
const admin = member({ permissions: MODERATOR_PERMISSIONS });

beforeAll(async () => {
  const { url, ...env } = await receiverEnv({ WEBHOOK_TOKEN: '', WEBHOOK_PUBLIC_URL: PUBLIC_URL });
  receiverUrl = url;
  world = await startWorld({
    sandbox: { ...KEY_A, moreCredentials: [KEY_B, KEY_C] },
    discord: { guildId: A, otherGuildIds: [B, C] },
    env: {
      ...env,
      DISCORD_GUILD_ID: '',
      SERVICE_API_KEY: '',
      SERVICE_APP_ID: '',
      MODERATOR_ROLE_IDS: '',
      REVIEW_LOG_CHANNEL_ID: '',
      SECRETS_KEY,
    },
  });
});
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

function setup(guildId: string, sub: string, options: CommandOption[] = [], who: MemberPayload = admin) {
  return world.discord.sendInteraction(
    slashCommand({
      name: 'setup',
      guildId,
      member: who,
      options: [{ name: sub, type: OptionType.Subcommand, options }],
    }),
  );
}

function vote(guildId: string): InteractionHandle {
  return world.discord.sendInteraction(slashCommand({ name: 'vote', guildId, member: member() }));
}

/** `/setup credentials`, then the form sent back with these values. */
async function submitCredentials(guildId: string, values: { apiKey: string; appId: string }): Promise<Message> {
  const modal = await setup(guildId, 'credentials').waitForModal();
  const submit = world.discord.sendInteraction(
    modalSubmit({
      customId: modal.custom_id,
      guildId,
      member: admin,
      fields: { api_key: values.apiKey, app_id: values.appId },
    }),
  );
  return submit.waitForMessage(10_000);
}

async function setReviewChannel(guildId: string): Promise<Message> {
  return setup(guildId, 'channel', [
    { name: 'kind', type: OptionType.String, value: 'review' },
    { name: 'target', type: OptionType.Channel, value: textChannelIdFor(guildId) },
  ]).waitForMessage();
}

/** `/setup webhook`: the address shown, and the token shown whole the first time. */
async function webhookOf(guildId: string): Promise<{ shownUrl: string; token: string }> {
  const message = await setup(guildId, 'webhook').waitForMessage();
  const fields = message.embeds[0]!.fields as Array<{ name: string; value: string }>;
  const unquote = (name: string) => fields.find((f) => f.name === name)!.value.replace(/`/g, '');
  const token = unquote('Token');
  tokens.set(guildId, token);
  return { shownUrl: unquote('Address'), token };
}

const urlOf = (guildId: string) => `${receiverUrl}/${guildId}`;
const posts = (guildId: string) => world.discord.channelMessages(textChannelIdFor(guildId));
const requestsSince = (from: number) => world.sandbox.requests.slice(from);

async function reviewPosted(guildId: string, content: string): Promise<void> {
  await world.discord.waitUntil(
    () => posts(guildId).some((message) => textOf(message).includes(content)),
    10_000,
    `the review in ${guildId}'s channel`,
  );
}

describe('one bot, many servers, each set up with /setup', () => {
  it('refuses credentials the service refuses, saving nothing, and keeps the values out of the answer', async () => {
    const before = world.sandbox.requests.length;
    const refused = await submitCredentials(A, { apiKey: 'server-a-wrong-key-0000', appId: KEY_A.appId });
    expect(textOf(refused)).toMatch(/refused/i);
    expect(textOf(refused)).not.toContain('server-a-wrong-key');
    expect(requestsSince(before).map((r) => r.route)).toEqual(['listVotes']);
    expect(textOf(await vote(A).waitForMessage())).toContain('/setup credentials');
  });

  it("checks A's credentials with one GET /votes, saves them and shows only their last four characters", async () => {
    const before = world.sandbox.requests.length;
    const saved = await submitCredentials(A, KEY_A);
    const text = textOf(saved);
    expect(text).toContain('7421');
    expect(text).toContain('3390');
    expect(text).not.toContain(KEY_A.apiKey);
    expect(text).not.toContain(KEY_A.appId);
    expect(requestsSince(before).map((r) => [r.route, r.appId])).toEqual([['listVotes', KEY_A.appId]]);
    expect(textOf(await setReviewChannel(A))).toContain(`<#${textChannelIdFor(A)}>`);
  });

  it("calls the service with A's key and app id for /vote in A", async () => {
    const before = world.sandbox.requests.length;
    await vote(A).waitForMessage();
    const sent = requestsSince(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      expect(request.appId).toBe(KEY_A.appId);
      expect(request.headers['service-api-key']).toBe(KEY_A.apiKey);
    }
  });

  it('answers "not set up" for /vote in B, naming /setup credentials, with no service call', async () => {
    const before = world.sandbox.requests.length;
    const answer = await vote(B).waitForMessage();
    expect(textOf(answer)).toMatch(/not set up/i);
    expect(textOf(answer)).toContain('/setup credentials');
    expect(world.sandbox.requests.length).toBe(before);
  });

  it('answers a command sent by DM that the commands work inside a server, with no service call', async () => {
    const before = world.sandbox.requests.length;
    const answer = await world.discord
      .sendInteraction(slashCommand({ name: 'vote', member: member(), directMessage: true }))
      .waitForMessage();
    expect(answer.embeds[0]?.title).toBe('Not in a server');
    expect(textOf(answer)).toContain('work inside a server, not in direct messages');
    expect(textOf(answer)).not.toMatch(/wrong server|set up for/i);
    expect(world.sandbox.requests.length).toBe(before);
  });

  it('refuses /setup to a member without Manage Server, changing nothing', async () => {
    const before = world.sandbox.requests.length;
    const plain = member();
    const refused = await setup(A, 'status', [], plain).waitForMessage();
    expect(textOf(refused)).toMatch(/Manage Server/);
    const form = setup(A, 'credentials', [], plain);
    expect(textOf(await form.waitForMessage())).toMatch(/Manage Server/);
    expect(form.modal()).toBeUndefined();
    expect(world.sandbox.requests.length).toBe(before);
  });

  it("posts a review delivered to A's URL with A's token in A's review channel", async () => {
    const { shownUrl, token } = await webhookOf(A);
    expect(shownUrl).toBe(`${PUBLIC_URL}/webhook/${A}`);
    expect(token.length).toBeGreaterThanOrEqual(32);
    const content = `A review for A ${Math.random().toString(36).slice(2, 8)}`;
    expect(await deliver(urlOf(A), token, reviewEvent(A, { id: 'rev_a1', authorId: VOTER, content }))).toBe(200);
    await reviewPosted(A, content);
  });

  it("refuses with 401, posting nothing, the same body sent to B's URL or with B's token on A's URL", async () => {
    const a = { token: tokens.get(A)! };
    await submitCredentials(B, KEY_B);
    await setReviewChannel(B);
    const b = await webhookOf(B);
    const body = reviewEvent(A, { id: 'rev_a2', authorId: VOTER, content: 'Sent to the wrong door' });
    const postsBefore = [posts(A).length, posts(B).length];
    expect(await deliver(urlOf(B), a.token, body)).toBe(401);
    expect(await deliver(urlOf(A), b.token, body)).toBe(401);
    // A review each server takes after them is posted: one taken before it would be posted first, or with it.
    const later = { [A]: `Later in A ${nextSnowflake()}`, [B]: `Later in B ${nextSnowflake()}` };
    for (const [guildId, token] of [
      [A, a.token],
      [B, b.token],
    ] as const) {
      const review = reviewEvent(guildId, { id: `rev_${nextSnowflake()}`, authorId: VOTER, content: later[guildId] });
      expect(await deliver(urlOf(guildId), token, review)).toBe(200);
      await reviewPosted(guildId, later[guildId]!);
    }
    expect([posts(A).length, posts(B).length]).toEqual(postsBefore.map((count) => count + 1));
    expect([...posts(A), ...posts(B)].filter((message) => textOf(message).includes('wrong door'))).toEqual([]);
  });

  it("never sends A's key for B once B is set up with its own", async () => {
    const before = world.sandbox.requests.length;
    await vote(B).waitForMessage();
    const sent = requestsSince(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      expect(request.appId).toBe(KEY_B.appId);
      expect(request.headers['service-api-key']).not.toBe(KEY_A.apiKey);
    }
    await vote(A).waitForMessage();
    expect(world.sandbox.requests.slice(before).filter((r) => r.appId === KEY_A.appId).length).toBeGreaterThan(0);
  });

  it("shows a name B's delivery gave only in B, and never as a link, not beside the member in A", async () => {
    const stranger = nextSnowflake();
    const bait = { username: 'bait', global_name: 'nitro gift https://evil.example' };
    // B's admin holds B's token and may send B's address anything: here a vote naming a member of A.
    expect(await deliver(urlOf(B), tokens.get(B)!, voteEvent(B, stranger, false, true, bait))).toBe(200);
    const inB = `B hears ${Math.random().toString(36).slice(2, 8)}`;
    expect(
      await deliver(urlOf(B), tokens.get(B)!, reviewEvent(B, { id: 'rev_b9', authorId: stranger, content: inB })),
    ).toBe(200);
    await reviewPosted(B, inB);
    const postInB = textOf(posts(B).find((message) => textOf(message).includes(inB))!);
    expect(postInB).toContain(`<@${stranger}> (nitro gift https:\u200b//evil.example)`);

    const inA = `A hears ${Math.random().toString(36).slice(2, 8)}`;
    expect(
      await deliver(urlOf(A), tokens.get(A)!, reviewEvent(A, { id: 'rev_a9', authorId: stranger, content: inA })),
    ).toBe(200);
    await reviewPosted(A, inA);
    const postInA = textOf(posts(A).find((message) => textOf(message).includes(inA))!);
    expect(postInA).toContain(`<@${stranger}>`);
    expect(postInA).not.toContain('nitro gift');
    expect(postInA).not.toContain('evil.example');
  });

  it("stops C's work when the bot leaves C: its deliveries are refused and nothing more is posted there", async () => {
    await submitCredentials(C, KEY_C);
    await setReviewChannel(C);
    const { token } = await webhookOf(C);
    const first = `A review for C ${Math.random().toString(36).slice(2, 8)}`;
    expect(await deliver(urlOf(C), token, reviewEvent(C, { id: 'rev_c1', authorId: VOTER, content: first }))).toBe(200);
    await reviewPosted(C, first);

    world.discord.removeGuild(C);
    await world.bot.waitForLog(
      (line) => line.msg === 'server work stopped' && line.guildId === C,
      10_000,
      "C's work stopping",
    );
    const postsBefore = posts(C).length;
    const after = reviewEvent(C, { id: 'rev_c2', authorId: VOTER, content: 'After leaving' });
    expect(await deliver(urlOf(C), token, after)).toBe(401);
    // Refused, so never stored, and C's lanes have stopped (logged above): nothing is left that could post there.
    expect(posts(C).length).toBe(postsBefore);
    // A is untouched.
    expect(textOf(await vote(A).waitForMessage())).not.toMatch(/not set up/i);
  });

  it('never writes a key, app id or webhook token into a log line', () => {
    const logged = world.bot.logs.map((line) => JSON.stringify(line)).join('\n');
    for (const { apiKey, appId } of [KEY_A, KEY_B, KEY_C]) {
      expect(logged).not.toContain(apiKey);
      expect(logged).not.toContain(appId);
    }
    expect(logged).not.toContain(SECRETS_KEY);
    expect(tokens.size).toBe(3);
    for (const token of tokens.values()) expect(logged).not.toContain(token);
  });
});

describe('the rest of /setup, in A', () => {
  it('runs the checks for the server, one line each, with the fix for what fails', async () => {
    const status = await setup(A, 'status').waitForMessage(10_000);
    const lines = textOf(status).split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^✔ \*\*Service credentials\*\*: accepted .*7421/));
    expect(lines).toContainEqual(expect.stringMatching(/^✔ \*\*Review feed\*\*: <#/));
    expect(lines).toContainEqual(expect.stringMatching(/^✔ \*\*Vote announcements\*\*: off/));
    expect(lines).toContainEqual(expect.stringMatching(/^✔ \*\*Last webhook delivery\*\*: <t:\d+:R>/));
    // deploy-commands never ran against this stand-in: the fix names it.
    expect(lines).toContainEqual(expect.stringMatching(/^✘ \*\*Slash commands\*\*/));
    expect(textOf(status)).toContain('npm run deploy-commands');
    expect(textOf(status)).not.toContain(KEY_A.apiKey);
  });

  it('takes an https vote link and refuses anything else, changing nothing', async () => {
    const url = (value: string) => setup(A, 'vote-url', [{ name: 'url', type: OptionType.String, value }]);
    expect(textOf(await url('http://guilds.me/server/1').waitForMessage())).toMatch(/https:\/\//);
    expect(textOf(await url('javascript:alert(1)').waitForMessage())).toMatch(/Link not accepted/);
    expect(textOf(await url('https://guilds.me/server/1').waitForMessage())).toContain('https://guilds.me/server/1');
  });

  it('sets the voter role the bot can give, and adds and removes a moderator role', async () => {
    const role = (name: string, value: string) => setup(A, 'role', [{ name, type: OptionType.Role, value }]);
    expect(textOf(await role('voter', voterRoleIdFor(A)).waitForMessage())).toMatch(/Voter role set/);
    const modRole = nextSnowflake();
    expect(textOf(await role('moderators', modRole).waitForMessage())).toMatch(/Moderator role added/);
    expect(textOf(await role('remove', modRole).waitForMessage())).toMatch(/Moderator role removed/);
    expect(textOf(await role('remove', modRole).waitForMessage())).toMatch(/not a moderator role/);
    expect(textOf(await setup(A, 'role').waitForMessage())).toMatch(/exactly one/);
  });

  it("refuses a voter role above the bot's own, saying why, and keeps the one set", async () => {
    // A role the stand-in creates for this member lands above every role the guild had, the bot's included.
    const high = nextSnowflake();
    const holder = member({ permissions: MODERATOR_PERMISSIONS, roles: [high] });
    const refused = await setup(
      A,
      'role',
      [{ name: 'voter', type: OptionType.Role, value: high }],
      holder,
    ).waitForMessage();
    expect(textOf(refused)).toContain(`<@&${high}> is not below the bot's highest role`);
    const status = textOf(await setup(A, 'status').waitForMessage(10_000));
    expect(status).toContain(`✔ **Voter role**: <@&${voterRoleIdFor(A)}>`);
  });

  it('refuses a channel where the bot cannot post, saying what it lacks, and changes nothing', async () => {
    world.discord.setChannelOverwrites(
      [{ role: botRoleIdFor(B), deny: Permission.EmbedLinks | Permission.SendMessages }],
      textChannelIdFor(B),
    );
    try {
      const refused = await setup(B, 'channel', [
        { name: 'kind', type: OptionType.String, value: 'votes' },
        { name: 'target', type: OptionType.Channel, value: textChannelIdFor(B) },
      ]).waitForMessage();
      expect(textOf(refused)).toMatch(/lacks Send Messages, Embed Links/);
      const status = textOf(await setup(B, 'status').waitForMessage(10_000));
      expect(status).toMatch(/✔ \*\*Vote announcements\*\*: off/);
      expect(status).toMatch(/✘ \*\*Review feed\*\*: <#\d+>: the bot lacks Send Messages, Embed Links/);
    } finally {
      world.discord.setChannelOverwrites([], textChannelIdFor(B));
    }
  });

  it("answers in the member's language", async () => {
    const handle = world.discord.sendInteraction(
      slashCommand({
        name: 'setup',
        guildId: A,
        member: admin,
        locale: 'de',
        options: [
          {
            name: 'channel',
            type: OptionType.Subcommand,
            options: [{ name: 'kind', type: OptionType.String, value: 'votes' }],
          },
        ],
      }),
    );
    expect(textOf(await handle.waitForMessage())).toContain('Stimmen-Ankündigungen: aus');
  });

  it('forgets the server only once the confirm button is pressed, by a member with Manage Server', async () => {
    const confirm = await setup(A, 'reset').waitForMessage();
    expect(textOf(await vote(A).waitForMessage())).not.toMatch(/not set up/i);
    const click = (who: MemberPayload) =>
      world.discord.sendInteraction(
        buttonClick({ customId: 'setup-reset:confirm', message: confirm, member: who, guildId: A }),
      );
    expect(textOf(await click(member()).waitForMessage())).toMatch(/Manage Server/);
    expect(textOf(await vote(A).waitForMessage())).not.toMatch(/not set up/i);
    expect(textOf(await click(admin).waitForMessage())).toMatch(/Server forgotten/);
    expect(textOf(await vote(A).waitForMessage())).toMatch(/not set up/i);
    expect(await deliver(urlOf(A), tokens.get(A)!, reviewEvent(A, { id: 'rev_a3', authorId: VOTER }))).toBe(401);
  });
});
