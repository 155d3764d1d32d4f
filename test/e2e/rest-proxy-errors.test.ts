import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startBot, type BotProcess } from '../support/bot-process.js';
import { nextSnowflake, startDiscordStandIn, voterRoleIdFor, type DiscordStandIn } from '../support/discord/index.js';
import { closedPort } from '../support/service.js';

/*
 * Discord answers errors all day (a voter who left the server: 404 Unknown Member). The proxy must
 * pass each back to the bot that asked, as Discord sent it, and go on serving the others. Found by
 * test/e2e/scale-out.test.ts: the proxy answered the first such error by exiting.
 */
let discord: DiscordStandIn;
let proxy: BotProcess;
let api: string;

beforeAll(async () => {
  discord = await startDiscordStandIn();
  const port = await closedPort();
  api = `http://127.0.0.1:${port}/api/v10`;
  proxy = startBot(
    { REST_PROXY_PORT: String(port), REST_PROXY_UPSTREAM: discord.apiUrl, LOG_LEVEL: 'info' },
    { script: 'rest-proxy' },
  );
  await proxy.waitForLog((line) => line.msg === 'REST proxy listening', 15_000, 'the proxy');
}, 30_000);
afterAll(async () => {
  await proxy?.stop('SIGKILL');
  await discord?.close();
});

const asBot = (method: string, route: string) =>
  fetch(`${api}${route}`, { method, headers: { authorization: `Bot ${discord.token}` } });

describe('the REST proxy and errors from Discord', () => {
  it("passes Discord's error back with its status and body, and keeps serving", async () => {
    const stranger = nextSnowflake();
    const refused = await asBot(
      'PUT',
      `/guilds/${discord.guildId}/members/${stranger}/roles/${voterRoleIdFor(discord.guildId)}`,
    );
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ code: 10007, message: 'Unknown Member' });

    const after = await asBot('GET', '/gateway/bot');
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ url: discord.gatewayUrl });
    expect(proxy.child.exitCode).toBeNull();
    expect(proxy.logs.filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
  });
});
