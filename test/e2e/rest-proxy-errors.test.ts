import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import {
  nextSnowflake,
  startDiscordStandIn,
  voterRoleIdFor,
  type DiscordStandIn,
} from '../../tools/discord-standin/index.js';
import { closedPort } from '../../tools/closed-port.js';

/*
 * Discord answers errors all day (a voter who left the server: 404 Unknown Member). The proxy must
 * pass each back to the bot that asked, as Discord sent it, and go on serving the others. Found by
 * test/e2e/scale-out.test.ts: the proxy answered the first such error by exiting.
 */
let discord: DiscordStandIn;
let proxy: BotProcess;
let api: string;

beforeAll(async () => {
  // A global limit of 3 a second, so a handful of posts at once meets a 429 the proxy waits out.
  discord = await startDiscordStandIn({ globalRequestsPerSecond: 3 });
  const port = await closedPort();
  api = `http://127.0.0.1:${port}/api/v10`;
  proxy = startBot(
    {
      REST_PROXY_PORT: String(port),
      REST_PROXY_UPSTREAM: discord.apiUrl,
      REST_PROXY_REQUESTS_PER_SECOND: '50',
      LOG_LEVEL: 'info',
    },
    { script: 'rest-proxy' },
  );
  await proxy.waitForLog((line) => line.msg === 'REST proxy listening', 15_000, 'the proxy');
}, 30_000);
afterAll(async () => {
  await proxy?.stop('SIGKILL');
  await discord?.close();
});

const asBot = (method: string, route: string, body?: unknown) =>
  fetch(`${api}${route}`, {
    method,
    headers: { authorization: `Bot ${discord.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

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

  it('sends a request that met a 429 again with its body, not an empty one', async () => {
    const texts = Array.from({ length: 8 }, (_, i) => `post ${i} ${nextSnowflake()}`);
    const answers = await Promise.all(
      texts.map((content) => asBot('POST', `/channels/${discord.channelId}/messages`, { content })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(texts.map(() => 200));
    expect(discord.globalRateLimited).toBeGreaterThan(0);
    const posted = discord.channelMessages(discord.channelId).map((message) => message.content);
    for (const content of texts) expect(posted.filter((text) => text === content)).toHaveLength(1);
  });
});
