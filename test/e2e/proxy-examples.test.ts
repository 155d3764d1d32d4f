import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closedPort } from '../../tools/closed-port.js';
import { dashboardSettings } from '../../tools/dashboard-visitor.js';
import { textOf } from '../../tools/conversation.js';
import { DEFAULTS, member, nextSnowflake, slashCommand } from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { post, requestAs } from '../../tools/list-senders/send.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { startWorld, type World } from '../../tools/world.js';
import { onPath, startDocsProxy, type ProxyName, type RunningProxy } from '../support/docs-proxy.js';
import { markedSnippet } from '../support/marked-snippet.js';

// Issue 49: the docs' reverse proxy forwarded /webhook alone, and Top.gg's votes at /webhook/topgg were
// lost (Caddy answered them 200 with nothing behind it, nginx 404). The examples in docs/webhooks.md
// run here as written, host and ports aside, in front of the built bot with its receiver and dashboard.

const GUILD = DEFAULTS.guildId;
const TOPGG_SECRET = 'whs_proxy0123456789abcdefghijklmno';
const API_KEY = 'vrk_proxy-example-key-0123456789abcdef';
const PROXIES: { name: ProxyName; snippet: string }[] = [
  { name: 'caddy', snippet: 'caddy-one-host' },
  { name: 'nginx', snippet: 'nginx-one-host' },
];
const runnable = PROXIES.filter(({ name }) => onPath(name));
for (const { name } of PROXIES.filter((proxy) => !runnable.includes(proxy)))
  console.warn(`proxy-examples: ${name} is not on PATH, so its example is skipped (apt-get install -y caddy nginx)`);

let world: World;
let receiverPort: number;
let dashboardPort: number;
let interactionsPort: number;
beforeAll(async () => {
  if (runnable.length === 0) return;
  const { url: _url, ...receiver } = await receiverEnv({
    LISTING_TOPGG_SECRET: TOPGG_SECRET,
    API_ENABLED: 'true',
    API_KEYS: API_KEY,
  });
  const dashboard = await dashboardSettings();
  receiverPort = Number(receiver.WEBHOOK_PORT);
  dashboardPort = Number(dashboard.env.DASHBOARD_PORT);
  interactionsPort = await closedPort();
  const interactions = { INTERACTIONS_PORT: String(interactionsPort), INTERACTIONS_HOST: '127.0.0.1' };
  world = await startWorld({ env: { ...receiver, ...dashboard.env, ...interactions } });
  await world.bot.waitForLog((line) => line.msg === 'dashboard listening');
  await world.bot.waitForLog((line) => line.msg === 'interactions endpoint listening');
}, 30_000);
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

const accepted = (userId: string) => (line: Record<string, unknown>) =>
  line.msg === 'vote accepted' && line.userId === userId;

describe.each(PROXIES)('the docs’ $name example ($snippet)', ({ name, snippet }) => {
  const run = runnable.some((proxy) => proxy.name === name) ? it : it.skip;
  let proxy: RunningProxy | undefined;
  beforeAll(async () => {
    if (run === it.skip) return;
    const ports = {
      proxy: await closedPort(),
      receiver: receiverPort,
      dashboard: dashboardPort,
      interactions: interactionsPort,
    };
    proxy = await startDocsProxy(name, markedSnippet('proxy-example', snippet), ports);
  }, 30_000);
  afterAll(() => proxy?.close());

  run('passes a Guilds vote at /webhook to the receiver, which records it', async () => {
    const voter = nextSnowflake();
    expect(await deliver(`${proxy!.base}/webhook`, WEBHOOK_TOKEN, voteEvent(GUILD, voter))).toBe(200);
    await world.bot.waitForLog(accepted(voter), 10_000, 'the Guilds vote recorded');
  });

  run('passes a signed Top.gg vote at /webhook/topgg to the receiver, which records it', async () => {
    const voter = nextSnowflake();
    const url = `${proxy!.base}/webhook/topgg`;
    expect(
      await post(requestAs('topgg', { url, secret: TOPGG_SECRET, vote: { guildId: GUILD, memberId: voter } })),
    ).toBe(200);
    const line = await world.bot.waitForLog(accepted(voter), 10_000, 'the Top.gg vote recorded');
    expect(line.site).toBe('topgg');
  });

  run("passes the vote API at /api/v1 to the receiver: the member's vote with a key, 401 without", async () => {
    const voter = nextSnowflake();
    expect(await deliver(`${proxy!.base}/webhook`, WEBHOOK_TOKEN, voteEvent(GUILD, voter))).toBe(200);
    await world.bot.waitForLog(accepted(voter), 10_000, 'the Guilds vote recorded');
    const url = `${proxy!.base}/api/v1/guilds/${GUILD}/members/${voter}/vote`;
    const asked = await fetch(url, { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(asked.status).toBe(200);
    expect(((await asked.json()) as { voting: boolean }).voting).toBe(true);
    const refused = await fetch(url);
    await refused.arrayBuffer();
    expect(refused.status).toBe(401);
  });

  run('passes a signed interaction at /interactions to the endpoint, which answers it in the response', async () => {
    const handle = world.discord.sendInteractionHttp(
      `${proxy!.base}/interactions`,
      slashCommand({ name: 'vote', member: member({ id: nextSnowflake() }) }),
    );
    expect((await handle.answered).status).toBe(200);
    expect(textOf(await handle.waitForMessage())).toContain('No active vote');
    // Unsigned, it is refused by the endpoint itself, not answered by the dashboard behind the catch-all.
    const forged = await world.discord.postSigned(`${proxy!.base}/interactions`, '{"type":1}', 'none');
    expect(forged.status).toBe(401);
  });

  run('passes every other path to the dashboard: /login answers with its redirect to the consent page', async () => {
    const response = await fetch(`${proxy!.base}/login`, { redirect: 'manual' });
    await response.arrayBuffer();
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(new RegExp(`^${world.discord.oauthAuthorizeUrl}\\?`));
  });
});
