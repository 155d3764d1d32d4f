import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { Permission, startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';
import { doctorInProcess } from '../support/doctor-in-process.js';
import { runScript, type ScriptRun } from '../support/run-script.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { openStore } from '../../src/store/index.js';
import { botEnvironment } from '../../tools/world.js';

const lines = (run: ScriptRun) => run.stdout.split('\n').filter((line) => /^[✔✘⚠–] /.test(line));
const failing = (run: ScriptRun) => lines(run).filter((line) => line.startsWith('✘'));

describe('npm run doctor', () => {
  let discord: DiscordStandIn;
  let sandbox: Sandbox;
  let env: Record<string, string>;
  // Most cases run the checks in this process; the first and the exit codes go through `npm run doctor`.
  const doctor = (overrides: Record<string, string> = {}, args: string[] = []) =>
    doctorInProcess({ ...env, ...overrides }, args);
  const doctorProcess = (overrides: Record<string, string> = {}, args: string[] = []) =>
    runScript('doctor', { ...env, ...overrides }, args);

  beforeAll(async () => {
    // In rate-limit mode the sandbox sends the x-ratelimit-* headers the real service sends.
    [discord, sandbox] = await Promise.all([
      startDiscordStandIn(),
      startSandbox({ rateLimit: { limit: 1000, windowMs: 60_000 } }),
    ]);
    // The review feed posts where the audit goes; the vote announcements stay off.
    env = { ...botEnvironment(discord, sandbox), REVIEW_CHANNEL_ID: discord.channelId };
    const deployed = await runScript('deploy-commands', env);
    expect(deployed.code).toBe(0);
  });
  afterEach(() => {
    discord.setChannelOverwrites([]);
  });
  afterAll(async () => {
    await Promise.all([discord?.close(), sandbox?.close()]);
  });

  it('passes every check of a healthy setup, reading only, and exits 0', async () => {
    const requestsBefore = discord.requests.length;
    const run = await doctorProcess();
    expect(failing(run)).toEqual([]);
    expect(run.code).toBe(0);
    const all = lines(run);
    expect(all.every((line) => line.startsWith('✔'))).toBe(true);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('All checks passed.');
    expect(all.map((line) => line.slice(2, line.indexOf(':')))).toEqual([
      'configuration',
      'setting names',
      'store (DATABASE_URL)',
      'Discord token',
      'server',
      'slash commands',
      'audit channel (REVIEW_LOG_CHANNEL_ID)',
      'review feed (REVIEW_CHANNEL_ID)',
      'vote announcements (VOTE_CHANNEL_ID)',
      'reminder channel (REMINDER_CHANNEL_ID)',
      'voter role (VOTER_ROLE_ID)',
      'service base URL',
      'service reachable',
      'service credentials',
      'GET /votes',
      'GET /votes/{user_id}',
      'GET /reviews/{user_id}',
      'rate-limit headers',
      'vote time left unit',
      'webhook receiver (WEBHOOK_PORT)',
      'dashboard (DASHBOARD_PORT)',
    ]);
    expect(run.stdout).toContain(`Discord token: the bot is Vote Review Bot (${discord.botUserId})`);
    expect(run.stdout).toMatch(/service credentials: accepted, sent as Service-Api-Key and Service-App-Id/);
    expect(run.stdout).toMatch(
      /audit channel \(REVIEW_LOG_CHANNEL_ID\): in #general the bot can View Channel, Send Messages, Embed Links/,
    );
    expect(run.stdout).toMatch(
      /review feed \(REVIEW_CHANNEL_ID\): in #general the bot can View Channel, Send Messages, Embed Links/,
    );
    expect(run.stdout).toMatch(/vote announcements \(VOTE_CHANNEL_ID\): not set; nothing is posted there\./);
    expect(run.stdout).toMatch(/vote time left unit: looks like milliseconds/);
    expect(run.stdout).toMatch(/rate-limit headers: seen: limit 1000 per window, \d+ left, resets in \d+ s\./);
    // It never posts: neither to the service nor to Discord.
    expect(sandbox.requests.every((r) => r.method === 'GET')).toBe(true);
    expect(discord.requests.slice(requestsBefore).every((r) => r.method === 'GET')).toBe(true);
    for (const secret of [env.DISCORD_TOKEN, env.SERVICE_API_KEY, env.SERVICE_APP_ID])
      expect(run.stdout + run.stderr).not.toContain(secret);
    // The member whose vote and review it reads is described, not named.
    const voter = sandbox.requests
      .find((r) => r.route === 'getVote')
      ?.path.split('/')
      .at(-1);
    expect(voter).toMatch(/^\d{17,20}$/);
    expect(run.stdout).not.toContain(voter);
    expect(run.stdout).toMatch(/GET \/votes\/\{user_id\}: matches the schema \(the first listed voter: voted\)/);
  });

  it('warns of a name in .env that is no setting, with the setting it likely meant, and still exits 0', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bot-doctor-env-'));
    const file = path.join(dir, '.env');
    writeFileSync(file, `VOTE_CHANEL_ID=${discord.channelId}\nTZ=UTC\nWEBHOOK_SECRETT=x\n`);
    const run = await doctorProcess({ DOTENV_CONFIG_PATH: file });
    expect(failing(run)).toEqual([]);
    expect(run.code).toBe(0);
    expect(lines(run).filter((line) => line.startsWith('⚠'))).toEqual([
      "⚠ setting names: VOTE_CHANEL_ID is no setting of the bot's and is ignored: did you mean VOTE_CHANNEL_ID?; " +
        "WEBHOOK_SECRETT is no setting of the bot's and is ignored (docs/configuration.md lists them). " +
        'Fix: rename each to the setting it meant (or remove it), then start the bot again.',
    ]);
    expect(run.stdout.trim().split('\n').at(-1)).toBe(
      'No check failed; the ⚠ line above is likely not what you meant.',
    );
    // The settings given to the doctor itself (a test's, in place of .env) are checked by name the same way.
    const inProcess = await doctor({ VOTE_CHANEL_ID: discord.channelId });
    expect(inProcess.stdout).toContain('did you mean VOTE_CHANNEL_ID?');
    expect(inProcess.code).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it("exits 0 with many servers when nothing failed: the servers' own checks are skipped, not failed", async () => {
    const many = {
      DISCORD_GUILD_ID: '',
      SERVICE_API_KEY: '',
      SERVICE_APP_ID: '',
      MODERATOR_ROLE_IDS: '',
      REVIEW_LOG_CHANNEL_ID: '',
      REVIEW_CHANNEL_ID: '',
      SECRETS_KEY: randomBytes(32).toString('base64'),
    };
    // With many servers the commands are registered for the application, not for one server.
    expect((await runScript('deploy-commands', { ...env, ...many })).code).toBe(0);
    const run = await doctor(many);
    expect(failing(run)).toEqual([]);
    expect(lines(run)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^✔ slash commands: /),
        '– server: skipped, many servers: each server checks itself with /setup status.',
      ]),
    );
    // The .env's channel and role lines are no server's here: left out, not shown as "not set".
    expect(
      lines(run).filter((line) => /\((REVIEW_LOG|REVIEW|VOTE|REMINDER)_CHANNEL_ID|VOTER_ROLE_ID\)/.test(line)),
    ).toEqual([]);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(
      /^No check failed; the \d+ skipped \(–\) had nothing to check here\.$/,
    );
    expect(run.code).toBe(0);
  });

  it('--server <id> checks one of many servers as /setup status does, from its stored settings', async () => {
    const key = randomBytes(32).toString('base64');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'doctor-server-')), 'bot.sqlite');
    const root = await openStore({ kind: 'sqlite', file });
    try {
      const servers = new Servers(root, { current: secretKey(key, 'SECRETS_KEY') }, undefined);
      await servers.load();
      await servers.setCredentials(discord.guildId, { apiKey: sandbox.apiKey, appId: sandbox.appId });
      await servers.setSettings(discord.guildId, { reviewChannelId: discord.channelId });
    } finally {
      await root.close();
    }
    const many = {
      DISCORD_GUILD_ID: '',
      SERVICE_API_KEY: '',
      SERVICE_APP_ID: '',
      MODERATOR_ROLE_IDS: '',
      REVIEW_LOG_CHANNEL_ID: '',
      REVIEW_CHANNEL_ID: '',
      SECRETS_KEY: key,
      DATABASE_URL: `file:${file}`,
    };
    expect((await runScript('deploy-commands', { ...env, ...many })).code).toBe(0);
    const run = await doctor(many, ['--server', discord.guildId]);
    expect(failing(run)).toEqual([]);
    expect(lines(run)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^✔ server ${discord.guildId} \\(--server\\): `)),
        // The checks the server's own settings make possible run, not skip: the server, its channel, its key.
        expect.stringMatching(/^✔ server: /),
        expect.stringMatching(/^✔ review feed \(REVIEW_CHANNEL_ID\): in #general the bot can /),
        expect.stringMatching(/^✔ service credentials: /),
        expect.stringMatching(/^✔ slash commands: /),
      ]),
    );
    expect(run.stdout).not.toContain(sandbox.apiKey);
    expect(run.code).toBe(0);

    const unknown = await doctor(many, ['--server', '123456789012345678']);
    expect(failing(unknown)).toEqual([
      expect.stringMatching(/^✘ server 123456789012345678 \(--server\): no server 123456789012345678 is set up in /),
    ]);
    expect(unknown.code).toBe(1);
  });

  it('--json prints the same checks as a JSON array for scripts, with the same exit codes', async () => {
    const healthy = await doctorProcess({}, ['--json']);
    expect(healthy.code).toBe(0);
    const checks = JSON.parse(healthy.stdout) as Array<Record<string, unknown>>;
    expect(checks.length).toBeGreaterThan(10);
    expect(checks[0]).toEqual({
      ok: true,
      name: 'configuration',
      status: 'pass',
      detail: expect.any(String),
      fix: null,
    });
    expect(checks.every((check) => check.ok === true && check.status === 'pass')).toBe(true);
    const text = await doctor();
    expect(checks.map((check) => check.name)).toEqual(lines(text).map((line) => line.slice(2, line.indexOf(':'))));

    const wrong = await doctor({ SERVICE_API_KEY: 'not-the-key' }, ['--json']);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).not.toContain('not-the-key');
    const after = JSON.parse(wrong.stdout) as Array<Record<string, unknown>>;
    // What needs accepted credentials is skipped: not ok, and nothing of its own to fix.
    expect(after.filter((check) => check.status === 'skip').length).toBeGreaterThan(0);
    for (const check of after.filter((c) => c.status === 'skip')) expect(check).toMatchObject({ ok: false, fix: null });
    expect(after.filter((check) => check.status === 'fail')).toEqual([
      {
        ok: false,
        name: 'service credentials',
        status: 'fail',
        detail: expect.stringMatching(/^refused \(401\)/),
        fix: expect.stringMatching(/SERVICE_API_KEY/),
      },
    ]);

    const unparsed = await doctorProcess({ DISCORD_TOKEN: '' }, ['--json']);
    expect(unparsed.code).toBe(78);
    const first = (JSON.parse(unparsed.stdout) as Array<Record<string, unknown>>)[0];
    expect(first).toMatchObject({ ok: false, name: 'configuration', status: 'fail' });
  });

  it('names a wrong API key, the header names it sent, and where to fix it', async () => {
    const run = await doctor({ SERVICE_API_KEY: 'not-the-key' });
    expect(run.code).toBe(1);
    expect(failing(run)).toEqual([
      expect.stringMatching(
        /^✘ service credentials: refused \(401\), sent as Service-Api-Key and Service-App-Id .*Fix: check SERVICE_API_KEY and SERVICE_APP_ID/,
      ),
    ]);
    expect(run.stdout).not.toContain('not-the-key');
  });

  it('tells a wrong header prefix from a wrong key and names the prefix that works', async () => {
    const run = await doctor({ SERVICE_HEADER_PREFIX: 'Guilds' });
    expect(run.code).toBe(1);
    expect(failing(run)).toEqual([
      expect.stringMatching(
        /^✘ service credentials: refused as Guilds-Api-Key and Guilds-App-Id \(401\), accepted as Service-Api-Key and Service-App-Id\. Fix: set SERVICE_HEADER_PREFIX=Service\.$/,
      ),
    ]);
  });

  it('catches a base URL without /v1 and gives the one to set', async () => {
    const base = sandbox.baseUrl.replace(/\/v1$/, '');
    const run = await doctor({ SERVICE_BASE_URL: base });
    // Today the base-URL check names it; once start-up refuses such a URL, the configuration check does,
    // and the doctor exits as the bot would: 78, a setting to fix.
    const first = failing(run)[0];
    expect(run.code).toBe(first?.startsWith('✘ configuration') ? 78 : 1);
    expect(first).toMatch(/^✘ (service base URL|configuration): /);
    expect(first).toMatch(/SERVICE_BASE_URL/);
    expect(first).toMatch(/\/v1/);
    if (first?.startsWith('✘ service base URL'))
      expect(first).toContain(`Fix: set SERVICE_BASE_URL to the API's v1 base, e.g. ${base}/v1.`);
  });

  it('names the permission the bot lacks in each channel it posts in and where to grant it', async () => {
    discord.setChannelOverwrites([{ role: discord.botRoleId, deny: Permission.SendMessages }]);
    const run = await doctor();
    expect(run.code).toBe(1);
    expect(failing(run)).toEqual([
      expect.stringMatching(
        /^✘ audit channel \(REVIEW_LOG_CHANNEL_ID\): in #general the bot lacks Send Messages\. Fix: #general → Edit Channel → Permissions: allow Send Messages/,
      ),
      expect.stringMatching(/^✘ review feed \(REVIEW_CHANNEL_ID\): in #general the bot lacks Send Messages\./),
    ]);
  });

  it('checks the voter role: one the bot can give passes; one at or above its own role fails with the fix', async () => {
    const fine = await doctor({ VOTER_ROLE_ID: discord.voterRoleId });
    expect(failing(fine)).toEqual([]);
    expect(lines(fine)).toContain('✔ voter role (VOTER_ROLE_ID): the bot can give and take @Voter.');
    const above = await doctor({ VOTER_ROLE_ID: discord.addRole('Above the bot', { position: 5 }) });
    expect(above.code).toBe(1);
    expect(failing(above)).toEqual([
      expect.stringMatching(
        /^✘ voter role \(VOTER_ROLE_ID\): .*is not below the bot's highest role.*Fix: Server Settings → Roles: give the bot's role Manage Roles and drag it above the role in VOTER_ROLE_ID\.$/,
      ),
    ]);
  });

  it("fails @everyone and the bot's own managed role as the voter role, with another role as the fix", async () => {
    for (const [roleId, problem] of [
      [discord.guildId, '@everyone is every member of the server and cannot be given or taken'],
      [discord.botRoleId, 'is managed by an integration and cannot be given'],
    ] as const) {
      const report = await doctor({ VOTER_ROLE_ID: roleId });
      expect(report.code).toBe(1);
      expect(failing(report)).toEqual([expect.stringContaining(problem)]);
      expect(failing(report)[0]).toContain('Fix: Set VOTER_ROLE_ID to a role the bot can give');
    }
  });

  it('sees an allow for the bot itself override a deny on @everyone', async () => {
    discord.setChannelOverwrites([
      { deny: Permission.ViewChannel | Permission.SendMessages },
      { member: discord.botUserId, allow: Permission.ViewChannel | Permission.SendMessages },
    ]);
    const run = await doctor();
    expect(failing(run)).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('lists what differs when the registered commands are out of date and suggests deploy-commands', async () => {
    const current = discord.registeredCommands();
    try {
      discord.setRegisteredCommands([
        ...current
          .filter((c) => c.name !== 'review')
          .map((c) => (c.name === 'vote' ? { ...c, description: 'An old description' } : c)),
        { name: 'ping', description: 'Removed long ago', type: 1 },
      ]);
      const run = await doctor();
      expect(run.code).toBe(1);
      expect(failing(run)).toEqual([
        expect.stringMatching(
          /^✘ slash commands: registered commands differ from commands\/: \/review is not registered; \/ping is registered but not in commands\/; \/vote differs in description\. Fix: run npm run deploy-commands\.$/,
        ),
      ]);
    } finally {
      discord.setRegisteredCommands(current);
    }
  });

  it('flags vote times that look like seconds rather than milliseconds', async () => {
    // A service sending seconds says 43200 for a 12-hour vote; the sandbox sends ms, so a vote
    // 80 s from running out puts a number of that size on the wire (five digits for as long as the
    // doctor may take to ask, even on a busy machine: it asked 4.4 s late once, and 43.2 s was too close).
    const seconds = await startSandbox({
      seed: {
        totalVotes: 1,
        monthlyVotes: 1,
        votes: [
          { userId: '284102390141648897', expiresAt: new Date(Date.now() + 80_000).toISOString(), discord: true },
        ],
        reviews: [],
      },
    });
    try {
      const run = await doctor({ SERVICE_BASE_URL: seconds.baseUrl });
      expect(run.code).toBe(1);
      expect(failing(run)).toEqual([
        expect.stringMatching(/^✘ vote time left unit: remaining looks like seconds: the largest is \d{5} .*Fix: /),
      ]);
    } finally {
      await seconds.close();
    }
  });

  it('skips what depends on a refused Discord token and says how to get a new one', async () => {
    const run = await doctor({ DISCORD_TOKEN: 'MTAw.refused.token' });
    expect(run.code).toBe(1);
    expect(failing(run)[0]).toMatch(/^✘ Discord token: Discord refused DISCORD_TOKEN \(401\)\. Fix: .*Reset Token/);
    expect(lines(run).filter((line) => line.startsWith('– '))).toEqual(
      expect.arrayContaining([
        '– server: skipped, needs a working Discord token.',
        '– slash commands: skipped, needs the bot in the server.',
        '– audit channel (REVIEW_LOG_CHANNEL_ID): skipped, needs the bot in the server.',
      ]),
    );
    expect(run.stdout).toMatch(/^✔ service credentials/m);
  });
});
