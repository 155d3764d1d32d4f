import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openStore } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { startBot, temporaryDatabaseUrl } from '../../tools/bot-process.js';
import { closedPort } from '../../tools/closed-port.js';
import { checkLine, startDoctorWorld, type DoctorWorld } from '../support/doctor-world.js';
import { doctorInProcess } from '../support/doctor-in-process.js';

const LATEST = Math.max(...MIGRATIONS.map((m) => m.version));
const fileOf = (url: string) => url.slice('file:'.length);

describe('npm run doctor on the store and the webhook receiver', () => {
  let world: DoctorWorld;
  let env: Record<string, string>;
  let receiverPort: number;
  // The checks run in this process (the same report, without a Node start each).
  const lineOf = async (name: string, overrides: Record<string, string>) =>
    checkLine(await doctorInProcess({ ...env, ...overrides }), name);

  beforeAll(async () => {
    // Stands in for a bot already listening on WEBHOOK_PORT, and for the proxy at WEBHOOK_PUBLIC_URL.
    world = await startDoctorWorld(405);
    ({ env, heldPort: receiverPort } = world);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('passes a store that opens and takes writes, and names its schema', async () => {
    const url = temporaryDatabaseUrl();
    const store = await openStore({ kind: 'sqlite', file: fileOf(url) });
    await store.close();
    expect(await lineOf('store (DATABASE_URL)', { DATABASE_URL: url })).toBe(
      `✔ store (DATABASE_URL): ${fileOf(url)} opens and takes writes; schema ${LATEST} is current.`,
    );
    const fresh = fileOf(temporaryDatabaseUrl());
    expect(await lineOf('store (DATABASE_URL)', { DATABASE_URL: `file:${fresh}` })).toBe(
      `✔ store (DATABASE_URL): ${fresh} is not made yet; the bot makes it (schema ${LATEST}) at its first start.`,
    );
  });

  it('fails a store the bot could not make, naming DATABASE_URL: a folder under a file, a folder it may not write', async () => {
    const file = fileOf(temporaryDatabaseUrl());
    writeFileSync(file, 'a regular file');
    const under = `${file}/data/bot.sqlite`;
    expect(await lineOf('store (DATABASE_URL)', { DATABASE_URL: `file:${under}` })).toBe(
      `✘ store (DATABASE_URL): ${under} is not made yet, and the bot could not make it: ${file} is a file, not a folder, so ${file}/data cannot be made. Fix: set DATABASE_URL to a file in a folder the bot's user may write in, or make that folder and give the user write access.`,
    );
    // root may write anywhere: the refusal can only be seen as another user.
    if (process.getuid?.() === 0) return;
    const locked = mkdtempSync(path.join(tmpdir(), 'vote-review-bot-locked-'));
    chmodSync(locked, 0o555);
    try {
      expect(await lineOf('store (DATABASE_URL)', { DATABASE_URL: `file:${locked}/bot.sqlite` })).toMatch(
        new RegExp(
          `^✘ store \\(DATABASE_URL\\): .*this user may not write in ${locked}, so the file cannot be made in it\\. Fix: set DATABASE_URL`,
        ),
      );
    } finally {
      chmodSync(locked, 0o755);
    }
  });

  it('fails a store that cannot be opened, with the start’s own message naming DATABASE_URL', async () => {
    const notADatabase = fileOf(temporaryDatabaseUrl());
    writeFileSync(notADatabase, 'this is not a SQLite file, but long enough to have a header page. '.repeat(20));
    const line = await lineOf('store (DATABASE_URL)', { DATABASE_URL: `file:${notADatabase}` });
    expect(line).toMatch(
      new RegExp(`^✘ store \\(DATABASE_URL\\): The store ${notADatabase} \\(DATABASE_URL\\) is damaged`),
    );
    expect(line).toContain('Fix: ');
  });

  it('passes webhook settings with a free port, and shows the token length, never the token', async () => {
    const token = 'a-webhook-token-of-32-characters';
    const free = await closedPort();
    const base = { WEBHOOK_HOST: '127.0.0.1', WEBHOOK_TOKEN: token };
    expect(await lineOf('webhook receiver (WEBHOOK_PORT)', { ...base, WEBHOOK_PORT: String(free) })).toBe(
      `✔ webhook receiver (WEBHOOK_PORT): port ${free} is free; WEBHOOK_TOKEN is 32 characters; WEBHOOK_PUBLIC_URL not set.`,
    );
  });

  it('fails WEBHOOK_PORT held by another process, naming it when it can; passes it held by the running bot', async () => {
    const token = 'a-webhook-token-of-32-characters';
    const base = { WEBHOOK_HOST: '127.0.0.1', WEBHOOK_TOKEN: token };
    // This test process holds receiverPort: not the bot, so the bot could not start.
    const taken = await lineOf('webhook receiver (WEBHOOK_PORT)', { ...base, WEBHOOK_PORT: String(receiverPort) });
    expect(taken).toMatch(
      process.platform === 'linux'
        ? new RegExp(
            `^✘ .*: port ${receiverPort} is taken by node \\(pid ${process.pid}\\), so the bot could not start\\. Fix: stop that process, or set WEBHOOK_PORT`,
          )
        : new RegExp(`^✘ .*: port ${receiverPort} is taken by another process`),
    );
    if (process.platform !== 'linux') return;
    const port = await closedPort();
    const settings = { ...env, ...base, WEBHOOK_PORT: String(port) };
    const bot = startBot(settings);
    try {
      await bot.waitForLog((line) => line.msg === 'webhook receiver listening', 15_000, 'the receiver');
      const ours = await lineOf('webhook receiver (WEBHOOK_PORT)', settings);
      expect(ours).toBe(
        `✔ webhook receiver (WEBHOOK_PORT): the bot (pid ${bot.child.pid}) listens on port ${port}; WEBHOOK_TOKEN is 32 characters; WEBHOOK_PUBLIC_URL not set.`,
      );
      expect(ours).not.toContain(token);
    } finally {
      await bot.stop('SIGKILL');
    }
  });

  it('checks WEBHOOK_PUBLIC_URL is reachable: any HTTP answer passes, a refused connection fails with the fix', async () => {
    const base = { WEBHOOK_HOST: '127.0.0.1', WEBHOOK_PORT: String(await closedPort()), WEBHOOK_TOKEN: 'x'.repeat(16) };
    const reached = await lineOf('webhook receiver (WEBHOOK_PORT)', {
      ...base,
      WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${receiverPort}`,
    });
    expect(reached).toMatch(
      new RegExp(`^✔ .*WEBHOOK_PUBLIC_URL http://127\\.0\\.0\\.1:${receiverPort}/webhook answers \\(HTTP 405\\)\\.$`),
    );
    const gone = await closedPort();
    const refused = await lineOf('webhook receiver (WEBHOOK_PORT)', {
      ...base,
      WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${gone}`,
    });
    expect(refused).toMatch(
      new RegExp(
        `^✘ .*WEBHOOK_PUBLIC_URL http://127\\.0\\.0\\.1:${gone}/webhook is not reachable from here \\(ECONNREFUSED\\)\\. Fix: `,
      ),
    );
    // Plain http to another host is ✘ before any request: the lists' secrets would cross the network in clear.
    const clear = await lineOf('webhook receiver (WEBHOOK_PORT)', {
      ...base,
      WEBHOOK_PUBLIC_URL: 'http://bot.example.com',
    });
    expect(clear).toMatch(
      /^✘ .*WEBHOOK_PUBLIC_URL is plain http on bot\.example\.com, so every list's secret \(and the vote\) crosses the network in clear\. Fix: put a reverse proxy with TLS in front \(docs\/webhooks\.md\) and set WEBHOOK_PUBLIC_URL to its https address\.$/,
    );
  });
});

describe('npm run doctor on the lists besides Guilds', () => {
  let world: DoctorWorld;
  let env: Record<string, string>;
  let receiverPort: number;
  const doctor = (overrides: Record<string, string>) => doctorInProcess({ ...env, ...overrides });

  beforeAll(async () => {
    world = await startDoctorWorld(405);
    ({ env, heldPort: receiverPort } = world);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('gives each list a line: who set it, its last delivery and test from the store, and its address answering', async () => {
    const url = temporaryDatabaseUrl();
    const store = await openStore({ kind: 'sqlite', file: fileOf(url) });
    const guildId = env.DISCORD_GUILD_ID!;
    await store.listingDelivered(guildId, 'topgg', Date.UTC(2026, 10, 28, 10, 43), true);
    await store.close();
    const settings = {
      DATABASE_URL: url,
      WEBHOOK_HOST: '127.0.0.1',
      WEBHOOK_PORT: String(await closedPort()),
      WEBHOOK_TOKEN: 'x'.repeat(32),
      LISTING_TOPGG_SECRET: 'whs_0123456789abcdefghijklmnopqrstuv',
      LISTING_DISCORDPLACE_SECRET: 'dp-secret-0123456789',
    };
    const run = await doctor({ ...settings, WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${receiverPort}` });
    expect(checkLine(run, 'lists besides Guilds')).toBe('✔ lists besides Guilds: Top.gg, discord.place.');
    expect(checkLine(run, 'list Top.gg')).toBe(
      `✔ list Top.gg: set by LISTING_TOPGG_SECRET; last delivery 2026-11-28 10:43 UTC, last test 2026-11-28 10:43 UTC; http://127.0.0.1:${receiverPort}/webhook/topgg answers (HTTP 405).`,
    );
    expect(checkLine(run, 'list discord.place')).toMatch(
      /^✔ list discord\.place: .*last delivery none yet, last test none yet;/,
    );
    expect(JSON.stringify(run)).not.toContain(settings.LISTING_TOPGG_SECRET);

    // Without WEBHOOK_PUBLIC_URL the address cannot be checked, nor pasted whole: a ✘ saying to set it.
    const unset = await doctor(settings);
    expect(checkLine(unset, 'list Top.gg')).toMatch(
      /^✘ list Top\.gg: .*WEBHOOK_PUBLIC_URL is not set, so the address to paste on Top\.gg \(…\/webhook\/topgg\) cannot be checked\. Fix: set WEBHOOK_PUBLIC_URL/,
    );
  });
});
