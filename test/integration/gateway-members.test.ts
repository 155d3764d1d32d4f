import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, Events, GatewayIntentBits, type Guild } from 'discord.js';
import { GatewayMembers } from '../../src/bot/gateway-members.js';
import { member, startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';

let discord: DiscordStandIn;
let client: Client;
let guild: Guild;
beforeAll(async () => {
  discord = await startDiscordStandIn();
  client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: discord.apiUrl } });
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(discord.token);
  await ready;
  guild = client.guilds.cache.get(discord.guildId)!;
});
afterAll(async () => {
  await client?.destroy();
  await discord?.close();
});

const newMembers = (count: number) => {
  const members = Array.from({ length: count }, () => member());
  discord.addMembers(members);
  return members.map((m) => m.user.id);
};
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
/**
 * A lookup of three on the same connection, paced by nobody: the stand-in reads a connection's
 * requests in order, so once this one is answered every request sent before it has been seen.
 */
const sentinel = () => new GatewayMembers().fetch(guild, newMembers(3));

describe('member lookups over the gateway', () => {
  it('asks 100 ids to a request and shares one request among asks made together', async () => {
    const lookups = new GatewayMembers();
    const ids = newMembers(250);
    const gone = '1300000000000000001';
    const sizesBefore = discord.memberRequestSizes.length;
    const [all, some, again] = await Promise.all([
      lookups.fetch(guild, [...ids, gone]),
      lookups.fetch(guild, ids.slice(0, 10)),
      lookups.fetch(guild, ids.slice(0, 10)),
    ]);
    expect(all.size).toBe(250);
    expect(all.has(gone)).toBe(false);
    expect([...some.keys()]).toEqual(ids.slice(0, 10));
    expect(again.size).toBe(10);
    expect(discord.memberRequestSizes.slice(sizesBefore)).toEqual([100, 100, 51]);
  });

  it('sends no more requests in a window than it is allowed, and the rest when the window moves', async () => {
    const lookups = new GatewayMembers(3, 1_000);
    const before = discord.memberRequests;
    const sizesBefore = discord.memberRequestSizes.length;
    const started = Date.now();
    const answered: number[] = [];
    // Five asks in separate turns of the event loop: five requests, not one.
    const asks: Array<Promise<unknown>> = [];
    for (const id of newMembers(5)) {
      asks.push(lookups.fetch(guild, [id]).then(() => answered.push(Date.now() - started)));
      await nextTurn();
    }
    await sentinel();
    // Three, then the sentinel: the other two wait for the window.
    expect(discord.memberRequests - before).toBe(4);
    await Promise.all(asks);
    // The two asks that waited for the window went out together.
    expect(discord.memberRequestSizes.slice(sizesBefore)).toEqual([1, 1, 1, 3, 2]);
    expect(answered.sort((a, b) => a - b)[3]).toBeGreaterThanOrEqual(950);
  });

  it("keeps a burst of 130 lookups under the gateway's 120 sends a minute: the connection stays open", async () => {
    const lookups = new GatewayMembers();
    const before = discord.memberRequests;
    const ids = newMembers(130);
    const asks: Array<Promise<unknown>> = [];
    for (const id of ids) {
      asks.push(lookups.fetch(guild, [id]).catch(() => undefined));
      await nextTurn();
    }
    await sentinel();
    // The first two tests sent 8 requests on this connection; this one's 100 fill the budget (the
    // sentinel is the one more).
    expect(discord.memberRequests - before - 1).toBeLessThanOrEqual(100);
    expect(discord.gatewaySendsOverLimit).toBe(0);
    expect(client.ws.ping).not.toBeNaN();
  });
});
