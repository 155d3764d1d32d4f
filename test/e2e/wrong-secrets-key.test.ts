import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore, type DatabaseTarget } from '../../src/store/index.js';
import { startBot, temporaryDatabaseUrl, type BotProcess } from '../../tools/bot-process.js';
import { closedPort } from '../../tools/closed-port.js';
import { nextSnowflake, startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { multiServerBotEnv } from '../support/multi-server.js';

/*
 * Issue 33, item 1: started with a SECRETS_KEY that sealed nothing in the store, the bot logged
 * `ready` and then failed every interaction and webhook. The built bot and receiver now stop at
 * start (exit 78, naming the settings), and start with the sealing key as SECRETS_KEY_PREVIOUS.
 */
const GUILDS = [nextSnowflake(), nextSnowflake()];
const base64Key = () => randomBytes(32).toString('base64');
const CREDENTIALS = { apiKey: 'api-key-sealed-under-a-4242', appId: 'app-id-sealed-under-a-1717' };

let discord: DiscordStandIn;
let sandbox: Sandbox;
const processes: BotProcess[] = [];
beforeAll(async () => {
  [discord, sandbox] = await Promise.all([
    startDiscordStandIn({ guildId: GUILDS[0], otherGuildIds: GUILDS.slice(1) }),
    startSandbox(),
  ]);
});
afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  await Promise.all([discord?.close(), sandbox?.close()]);
});

/** Every server set up under `key`, as /setup leaves it: credentials and a webhook token, sealed. */
async function sealUnder(key: string, target: DatabaseTarget): Promise<string[]> {
  const root = await openStore(target);
  try {
    const servers = new Servers(root, { current: secretKey(key, 'SECRETS_KEY') }, undefined);
    await servers.load();
    const tokens: string[] = [];
    for (const guildId of GUILDS) {
      await servers.setCredentials(guildId, CREDENTIALS);
      tokens.push(await servers.newWebhookToken(guildId));
    }
    return tokens;
  } finally {
    await root.close();
  }
}

function start(env: Record<string, string>, script?: string): BotProcess {
  const child = startBot(env, script === undefined ? {} : { script });
  processes.push(child);
  return child;
}

/** How a start ends first, and how long after it began: the exit, or 'ready' for a start that should have stopped. */
async function outcome(child: BotProcess, readyMsg: (msg: string) => boolean) {
  const began = Date.now();
  const first = await Promise.race([
    child.exited,
    child.waitForLog((line) => readyMsg(line.msg ?? ''), 20_000).then(() => 'ready' as const),
  ]);
  return { first, ms: Date.now() - began };
}

function expectRefusal(child: BotProcess, ended: { first: unknown; ms: number }, secrets: string[]): void {
  expect(ended.first).toEqual({ code: 78, signal: null });
  expect(ended.ms).toBeLessThan(10_000);
  const stderr = child.stderr();
  expect(stderr).toContain('SECRETS_KEY does not open 6 stored secrets of 2 servers');
  expect(stderr).toContain('SECRETS_KEY_PREVIOUS');
  expect(stderr).toContain('npm run rotate-secrets');
  const all = stderr + JSON.stringify(child.logs);
  for (const secret of secrets) expect(all).not.toContain(secret);
  expect(child.logs.some((line) => line.msg === 'ready')).toBe(false);
}

describe('the bot started with a SECRETS_KEY that sealed nothing in the store', () => {
  it('exits 78 within 10 s naming SECRETS_KEY and the fix, never ready; with the old key as previous it starts', async () => {
    const [keyA, keyB] = [base64Key(), base64Key()];
    const url = temporaryDatabaseUrl();
    const tokens = await sealUnder(keyA, { kind: 'sqlite', file: url.slice('file:'.length) });
    const secrets = [keyA, keyB, CREDENTIALS.apiKey, CREDENTIALS.appId, ...tokens];

    const wrong = start({ ...multiServerBotEnv(discord, sandbox, keyB), DATABASE_URL: url });
    expectRefusal(wrong, await outcome(wrong, (msg) => msg === 'ready'), secrets);
    expect(discord.gatewaySessions).toBe(0);

    const rotating = start({
      ...multiServerBotEnv(discord, sandbox, keyB),
      SECRETS_KEY_PREVIOUS: keyA,
      DATABASE_URL: url,
    });
    expect((await outcome(rotating, (msg) => msg === 'ready')).first).toBe('ready');
    await rotating.stop('SIGTERM');
  }, 60_000);
});

describe('the webhook receiver started with a SECRETS_KEY that sealed nothing in the store', () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await postgres?.stop();
  });

  it('exits 78 within 10 s naming SECRETS_KEY, never listening; with the old key as previous it listens', async () => {
    const [keyA, keyB] = [base64Key(), base64Key()];
    const target: DatabaseTarget = { kind: 'postgres', url: await postgres.createDatabase() };
    const tokens = await sealUnder(keyA, target);
    const env = async (keys: Record<string, string>) => ({
      ROLE: 'receiver',
      DATABASE_URL: target.url,
      WEBHOOK_PORT: String(await closedPort()),
      WEBHOOK_HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...keys,
    });
    const listening = (msg: string) => msg.startsWith('webhook receiver listening');

    const wrong = start(await env({ SECRETS_KEY: keyB }), 'receiver');
    expectRefusal(wrong, await outcome(wrong, listening), [keyA, keyB, ...tokens]);
    expect(wrong.logs.some((line) => listening(line.msg ?? ''))).toBe(false);

    const rotating = start(await env({ SECRETS_KEY: keyB, SECRETS_KEY_PREVIOUS: keyA }), 'receiver');
    expect((await outcome(rotating, listening)).first).toBe('ready');
    await rotating.stop('SIGTERM');
  }, 60_000);
});
