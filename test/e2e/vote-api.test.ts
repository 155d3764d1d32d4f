import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { newApiKey } from '../../src/secrets/api-keys.js';
import { textOf } from '../../tools/conversation.js';
import { nextSnowflake, OptionType, type CommandOption, type Message } from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { sendAs } from '../../tools/list-senders/send.js';
import { receiverEnv, removeStoreFiles } from '../../tools/receiver-env.js';
import { startWorld, type World } from '../../tools/world.js';
import { group, manyServerSettings, setupAsAdmin, sub } from '../support/multi-server.js';
import { apiClient, type ApiAnswer } from '../support/api-answers.js';

// Issue 51, item 2: the "has voted?" API on the built bot's receiver port, in many-server mode,
// keys made with /setup api-key in Discord (the stand-in). A member votes on Guilds and on
// discord.place in A; A's key reads A and nothing else. Every answer is checked against the
// OpenAPI document the API serves.

const A = nextSnowflake();
const B = nextSnowflake();
const KEY_A = { apiKey: 'vote-api-a-api-key-1357', appId: 'vote-api-a-app-id-2468' };
const KEY_B = { apiKey: 'vote-api-b-api-key-9753', appId: 'vote-api-b-app-id-8642' };
const SECRETS_KEY = randomBytes(32).toString('base64');
const VOTER = nextSnowflake();

let world: World;
let asAdmin: ReturnType<typeof setupAsAdmin>;
let receiverUrl: string;
let api: ReturnType<typeof apiClient>;
const guildsToken = new Map<string, string>();
/** Every key made, to look for in the log at the end. */
const made: string[] = [];

beforeAll(async () => {
  const { url, ...env } = await receiverEnv({ WEBHOOK_TOKEN: '', API_ENABLED: 'true' });
  receiverUrl = url;
  world = await startWorld({
    sandbox: { ...KEY_A, moreCredentials: [KEY_B] },
    discord: { guildId: A, otherGuildIds: [B] },
    env: {
      ...env,
      ...manyServerSettings(SECRETS_KEY),
      LOG_LEVEL: 'debug',
    },
  });
  asAdmin = setupAsAdmin(world.discord);
  api = apiClient(url.replace(/\/webhook$/, ''));
  await setUp(A, KEY_A);
  await setUp(B, KEY_B);
}, 60_000);
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

function setup(guildId: string, options: CommandOption[]) {
  return asAdmin.setup(guildId, options);
}
const named = (value: string): CommandOption[] => [{ name: 'name', type: OptionType.String, value }];
const fieldOf = (message: Message, name: string) =>
  ((message.embeds[0]!.fields ?? []) as Array<{ name: string; value: string }>).find((f) => f.name === name)?.value ??
  '';

async function setUp(guildId: string, key: { apiKey: string; appId: string }): Promise<void> {
  await asAdmin.credentials(guildId, key);
  const webhook = await setup(guildId, sub('webhook')).waitForMessage();
  guildsToken.set(guildId, fieldOf(webhook, 'Token').replace(/`/g, ''));
}

/** `/setup api-key create name:`: the key, read from the answer that shows it whole this once. */
async function createKey(guildId: string, name: string): Promise<string> {
  const answer = await setup(guildId, group('api-key', 'create', named(name))).waitForMessage();
  const key = /vrk_[A-Za-z0-9_-]{43}/.exec(textOf(answer))?.[0];
  expect(key).toBeDefined();
  made.push(key!);
  return key!;
}

const memberVote = (guildId: string, userId: string, key?: string) =>
  api.get(`/api/v1/guilds/${guildId}/members/${userId}/vote`, key);

describe('the vote API through the built bot', () => {
  let keyA: string;
  beforeAll(async () => {
    keyA = await createKey(A, 'economy-bot');
    // The member votes on Guilds and on discord.place (its listing added with /setup in A).
    const listing = await setup(
      A,
      group('listing', 'add', [{ name: 'site', type: OptionType.String, value: 'discordplace' }]),
    ).waitForMessage();
    const secret = fieldOf(listing, 'Secret').replace(/`/g, '');
    world.sandbox.setVote(VOTER, 12 * 3_600_000);
    expect(await deliver(`${receiverUrl}/${A}`, guildsToken.get(A)!, voteEvent(A, VOTER))).toBe(200);
    const placed = await sendAs('discordplace', {
      url: `${receiverUrl}/${A}/discordplace`,
      secret,
      vote: { guildId: A, memberId: VOTER },
    });
    expect(placed.status).toBe(200);
    const counted = () => world.bot.logs.filter((l) => l.msg === 'vote accepted' && l.userId === VOTER).length;
    await world.bot.waitForLog(() => counted() === 2, 10_000, 'both votes in the ledger');
  }, 30_000);

  it('answers voting:true for a member voting on two lists, with both lists and their counts', async () => {
    const answer = await memberVote(A, VOTER, keyA);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ voting: true, month: 2, all_time: 2, streak: 1 });
    const lists = answer.body.lists as Array<{ site: string; weight: number; voted_at: string; expires_at: string }>;
    expect(lists.map((list) => list.site).sort()).toEqual(['discordplace', 'guilds']);
    for (const list of lists) expect(Date.parse(list.expires_at)).toBeGreaterThan(Date.now());
    const feed = await api.get(`/api/v1/guilds/${A}/votes`, keyA);
    expect((feed.body.data as Array<{ member_id: string }>).filter((v) => v.member_id === VOTER)).toHaveLength(2);
  });

  it('answers 401 without a key, with a key no server has, and with one that is not a key', async () => {
    for (const key of [undefined, newApiKey(), 'hunter2']) {
      const answer = await memberVote(A, VOTER, key);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it("answers 404 for A's key asking about B, exactly as for a server no one has, while B's key reads B", async () => {
    const across = await memberVote(B, VOTER, keyA);
    const nowhere = await memberVote(nextSnowflake(), VOTER, keyA);
    expect(across.status).toBe(404);
    expect(across.body).toEqual(nowhere.body);
    const keyB = await createKey(B, 'economy-bot');
    const inB = await memberVote(B, VOTER, keyB);
    expect(inB.body).toEqual({ voting: false, lists: [], month: 0, all_time: 0, streak: 0 });
    expect((await memberVote(A, VOTER, keyB)).status).toBe(404);
  });

  it('answers 429 past the burst of 10, with Retry-After, and the limit headers on every answer', async () => {
    const key = await createKey(A, 'burst');
    const answers: ApiAnswer[] = [];
    for (let i = 0; i < 11; i += 1) answers.push(await memberVote(A, VOTER, key));
    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.map((a) => a.headers.get('x-ratelimit-limit'))).toEqual(Array(11).fill('60'));
    expect(answers[0]!.headers.get('x-ratelimit-remaining')).toBe('9');
    const refused = answers[10]!;
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    // Another key of the same server keeps its own burst.
    expect((await memberVote(A, VOTER, keyA)).status).toBe(200);
  });

  it('lists the keys by name and end only, and a revoked key is refused from then on', async () => {
    const key = await createKey(A, 'old-bot');
    expect((await memberVote(A, VOTER, key)).status).toBe(200);
    const list = textOf(await setup(A, group('api-key', 'list')).waitForMessage());
    expect(list).toContain('**old-bot**');
    expect(list).toContain(key.slice(-4));
    for (const shown of made) expect(list).not.toContain(shown);
    const revoked = await setup(A, group('api-key', 'revoke', named('old-bot'))).waitForMessage();
    expect(textOf(revoked)).toContain('Key revoked');
    expect((await memberVote(A, VOTER, key)).status).toBe(401);
    const again = await setup(A, group('api-key', 'create', named('economy-bot'))).waitForMessage();
    expect(textOf(again)).toContain('already');
  });

  it('never logged a key, and checked every answer against the OpenAPI document', () => {
    const log = JSON.stringify(world.bot.logs);
    for (const key of made) expect(log).not.toContain(key);
    expect(api.checked).toBeGreaterThan(20);
  });
});
