import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { textOf } from '../../tools/conversation.js';
import { nextSnowflake, OptionType, type CommandOption, type Message } from '../../tools/discord-standin/index.js';
import { startForwardDestination, verifySignature, type ForwardDestination } from '../../tools/forward-destination.js';
import { sendAs } from '../../tools/list-senders/send.js';
import { receiverEnv, removeStoreFiles } from '../../tools/receiver-env.js';
import { startWorld, type World } from '../../tools/world.js';
import { group, manyServerSettings, setupAsAdmin, sub } from '../support/multi-server.js';

// Issue 51 in many-server mode: `/setup forward add|list|test|remove` through the built bot and the
// Discord stand-in. A forwards to a local destination; B, on the same bot, forwards nowhere.

const A = nextSnowflake();
const B = nextSnowflake();
const KEY_A = { apiKey: 'forward-a-api-key-1357', appId: 'forward-a-app-id-2468' };
const KEY_B = { apiKey: 'forward-b-api-key-9753', appId: 'forward-b-app-id-8642' };
const SECRETS_KEY = randomBytes(32).toString('base64');

let world: World;
let asAdmin: ReturnType<typeof setupAsAdmin>;
let destination: ForwardDestination;
let receiverUrl: string;
/** The secret /setup forward add showed whole, and discord.place's listing secret, per server. */
let forwardSecret = '';
const listingSecret = new Map<string, string>();

function setup(guildId: string, options: CommandOption[]) {
  return asAdmin.setup(guildId, options);
}
const url = (value: string): CommandOption => ({ name: 'url', type: OptionType.String, value });
const fieldsOf = (message: Message) => (message.embeds[0]!.fields ?? []) as Array<{ name: string; value: string }>;

async function setUp(guildId: string, key: { apiKey: string; appId: string }): Promise<void> {
  await asAdmin.credentials(guildId, key);
  const site: CommandOption = { name: 'site', type: OptionType.String, value: 'discordplace' };
  const added = await setup(guildId, group('listing', 'add', [site])).waitForMessage();
  const secret = /`([^`]+)`/.exec(fieldsOf(added).find((f) => f.name === 'Secret')?.value ?? '')?.[1];
  listingSecret.set(guildId, secret ?? '');
}

beforeAll(async () => {
  destination = await startForwardDestination({ secret: 'not-known-yet' });
  const { url: webhookUrl, ...env } = await receiverEnv({
    WEBHOOK_TOKEN: '',
    WEBHOOK_PUBLIC_URL: 'https://bot.example.com',
  });
  receiverUrl = webhookUrl;
  world = await startWorld({
    sandbox: { ...KEY_A, moreCredentials: [KEY_B] },
    discord: { guildId: A, otherGuildIds: [B] },
    env: {
      ...env,
      ...manyServerSettings(SECRETS_KEY),
      FORWARD_ALLOW_PRIVATE: 'true',
    },
  });
  asAdmin = setupAsAdmin(world.discord);
  await setUp(A, KEY_A);
  await setUp(B, KEY_B);
}, 60_000);
afterAll(async () => {
  await world?.close();
  await destination?.close();
  removeStoreFiles();
});

describe('/setup forward', () => {
  it('adds a destination with a vrf_ secret shown whole this once, then by its end', async () => {
    const added = await setup(A, group('forward', 'add', [url(destination.url)])).waitForMessage();
    const [field] = fieldsOf(added);
    expect(field?.name).toBe(destination.url);
    forwardSecret = /`(vrf_[A-Za-z0-9_-]+)`/.exec(field!.value)?.[1] ?? '';
    expect(forwardSecret).toMatch(/^vrf_.{20,}$/);
    const again = await setup(A, group('forward', 'add', [url(destination.url)])).waitForMessage();
    expect(textOf(again)).not.toContain(forwardSecret);
    expect(textOf(again)).toContain(`Secret ending in ${forwardSecret.slice(-4)}`);
    expect(world.bot.logs.some((line) => JSON.stringify(line).includes(forwardSecret))).toBe(false);
  });

  it("refuses an address that is not one and saves nothing; B's list stays empty", async () => {
    const ftp = await setup(A, group('forward', 'add', [url('ftp://bot.example.com/votes')])).waitForMessage();
    expect(textOf(ftp)).toContain('https only');
    const words = await setup(A, group('forward', 'add', [url('my bot please')])).waitForMessage();
    expect(textOf(words)).toContain('Not an address');
    const listA = await setup(A, group('forward', 'list')).waitForMessage();
    expect(fieldsOf(listA).map((f) => f.name)).toEqual([destination.url]);
    const listB = await setup(B, group('forward', 'list')).waitForMessage();
    expect(textOf(listB)).toContain('No destinations yet');
  });

  it("forwards A's votes signed with A's secret, and none of B's", async () => {
    const voterA = nextSnowflake();
    const voterB = nextSnowflake();
    for (const [guildId, memberId] of [
      [B, voterB],
      [A, voterA],
    ] as const) {
      const { status } = await sendAs('discordplace', {
        url: `${receiverUrl}/${guildId}/discordplace`,
        secret: listingSecret.get(guildId)!,
        vote: { guildId, memberId },
      });
      expect(status).toBe(200);
    }
    await destination.waitUntil((r) => r.some((x) => x.body.data?.member_id === voterA), 15_000, "A's vote");
    const got = destination.received.find((x) => x.body.data?.member_id === voterA)!;
    expect(verifySignature(got.signature, got.rawBody, forwardSecret)).toBe(true);
    expect(got.body.data).toMatchObject({ guild_id: A, site: 'discordplace' });
    expect(destination.received.some((x) => x.body.data?.guild_id === B)).toBe(false);
  });

  it('tests the destination, and shows its last result in the list and in /setup status', async () => {
    const before = destination.received.length;
    const tested = await setup(A, group('forward', 'test')).waitForMessage(10_000);
    expect(textOf(tested)).toMatch(/✔ `http:\/\/127\.0\.0\.1:\d+\/votes`: delivered \(200\)/);
    const test = destination.received.slice(before).find((x) => x.body.type === 'webhook.test');
    expect(test && verifySignature(test.signature, test.rawBody, forwardSecret)).toBe(true);
    const list = await setup(A, group('forward', 'list')).waitForMessage();
    expect(textOf(list)).toMatch(/delivered \(200\) <t:\d+:R>/);
    const status = await setup(A, sub('status')).waitForMessage(15_000);
    expect(textOf(status)).toMatch(/✔ \*\*Forwarding to http:\/\/127\.0\.0\.1:\d+\/votes\*\*: delivered \(200\)/);
  });

  it('says an address that is not a destination is not one, and sends nothing', async () => {
    const before = destination.received.length;
    const other = 'https://other.example.com/votes';
    const tested = await setup(A, group('forward', 'test', [url(other)])).waitForMessage();
    expect(textOf(tested)).toContain(`No destination ${other} here`);
    expect(destination.received.length).toBe(before);
  });

  it('removes it: nothing is forwarded there any more', async () => {
    const removed = await setup(A, group('forward', 'remove', [url(destination.url)])).waitForMessage();
    expect(textOf(removed)).toContain('Destination removed');
    const list = await setup(A, group('forward', 'list')).waitForMessage();
    expect(textOf(list)).toContain('No destinations yet');
  });
});
