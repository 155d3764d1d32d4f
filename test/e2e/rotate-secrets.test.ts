import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { secretKey } from '../../src/secrets/secret-box.js';
import { Servers } from '../../src/servers/servers.js';
import { holdStore, openStore, type DatabaseTarget } from '../../src/store/index.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { runScript } from '../support/run-script.js';

const GUILDS = ['111111111111111111', '222222222222222222', '333333333333333333'];
const base64Key = () => randomBytes(32).toString('base64');
const credentialsOf = (guildId: string) => ({ apiKey: `api-key-${guildId}-abcdef`, appId: `app-id-${guildId}-uvwxyz` });

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A SQLite store whose every server has credentials and a webhook token sealed under `k1`. */
async function storeSealedUnder(k1: string): Promise<{ file: string; tokens: Map<string, string> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bot-rotate-'));
  dirs.push(dir);
  const file = path.join(dir, 'bot.sqlite');
  return { file, tokens: await sealUnder(k1, { kind: 'sqlite', file }) };
}

/** Every server's credentials and a webhook token, sealed under `k1`; returns the tokens. */
async function sealUnder(k1: string, target: DatabaseTarget): Promise<Map<string, string>> {
  const root = await openStore(target);
  const servers = new Servers(root, { current: secretKey(k1, 'SECRETS_KEY') }, undefined);
  await servers.load();
  const tokens = new Map<string, string>();
  for (const guildId of GUILDS) {
    await servers.setCredentials(guildId, credentialsOf(guildId));
    tokens.set(guildId, await servers.newWebhookToken(guildId));
  }
  await root.close();
  return tokens;
}

const rawBytes = (file: string) =>
  readFileSync(file).toString('latin1') + readFileSync(`${file}-wal`, { flag: 'a+' }).toString('latin1');

describe('npm run rotate-secrets', () => {
  it('re-seals every secret under the new key, so the store opens with the new key alone', async () => {
    const [k1, k2] = [base64Key(), base64Key()];
    const { file, tokens } = await storeSealedUnder(k1);
    const oldId = secretKey(k1, 'SECRETS_KEY').id;
    expect(rawBytes(file)).toContain(`:${oldId}:`);

    const run = await runScript('rotate-secrets', {
      DATABASE_URL: `file:${file}`,
      SECRETS_KEY: k2,
      SECRETS_KEY_PREVIOUS: k1,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Re-sealed 9 secrets of 3 servers');
    for (const guildId of GUILDS) {
      for (const value of [...Object.values(credentialsOf(guildId)), tokens.get(guildId)!])
        expect(run.stdout).not.toContain(value);
    }
    expect(run.stdout).not.toContain(k1);
    expect(run.stdout).not.toContain(k2);

    expect(rawBytes(file)).not.toContain(`:${oldId}:`);
    const root = await openStore({ kind: 'sqlite', file });
    const servers = new Servers(root, { current: secretKey(k2, 'SECRETS_KEY') }, undefined);
    await servers.load();
    for (const guildId of GUILDS) {
      expect(servers.credentials(guildId)).toEqual(credentialsOf(guildId));
      expect(servers.webhookToken(guildId)).toBe(tokens.get(guildId));
    }
    await root.close();
  });

  it('refuses while a bot holds the store, and changes nothing', async () => {
    const [k1, k2] = [base64Key(), base64Key()];
    const { file } = await storeSealedUnder(k1);
    const before = rawBytes(file);
    const lock = await holdStore({ kind: 'sqlite', file }, { onStandby: () => undefined, onLost: () => undefined });
    try {
      const run = await runScript('rotate-secrets', {
        DATABASE_URL: `file:${file}`,
        SECRETS_KEY: k2,
        SECRETS_KEY_PREVIOUS: k1,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('A bot holds the store');
    } finally {
      await lock.release();
    }
    expect(rawBytes(file)).toBe(before);
  });

  it('says which key is missing when a value was sealed by neither key, exiting 78', async () => {
    const { file } = await storeSealedUnder(base64Key());
    const run = await runScript('rotate-secrets', { DATABASE_URL: `file:${file}`, SECRETS_KEY: base64Key() });
    expect(run.code).toBe(78);
    expect(run.stderr).toContain('neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS');
  });

  it('with --forget-lost drops what neither key opens, naming the servers, so the store opens with the new key', async () => {
    const [lost, k2] = [base64Key(), base64Key()];
    const { file, tokens } = await storeSealedUnder(lost);
    const run = await runScript('rotate-secrets', { DATABASE_URL: `file:${file}`, SECRETS_KEY: k2 }, ['--forget-lost']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Forgot 9 secrets that neither key opens, of 3 servers: ${GUILDS.join(', ')}.`);
    expect(run.stdout).toContain('/setup credentials');
    for (const value of [lost, k2, ...tokens.values(), ...GUILDS.flatMap((g) => Object.values(credentialsOf(g)))])
      expect(run.stdout).not.toContain(value);

    const root = await openStore({ kind: 'sqlite', file });
    expect(await root.sealedKeyUses()).toEqual([]);
    const servers = new Servers(root, { current: secretKey(k2, 'SECRETS_KEY') }, undefined);
    await servers.load();
    expect(GUILDS.filter((guildId) => servers.isConfigured(guildId))).toEqual([]);
    await root.close();
  });

  it('stops on a configuration problem with exit 78, naming the variable and never echoing a key', async () => {
    const missing = await runScript('rotate-secrets', {});
    expect(missing.code).toBe(78);
    expect(missing.stderr).toContain('SECRETS_KEY is missing');
    const short = 'c2hvcnQta2V5';
    const bad = await runScript('rotate-secrets', { SECRETS_KEY: base64Key(), SECRETS_KEY_PREVIOUS: short });
    expect(bad.code).toBe(78);
    expect(bad.stderr).toContain('SECRETS_KEY_PREVIOUS must be 32 random bytes in base64');
    expect(bad.stderr).not.toContain(short);
  });

  it('prints its usage with --help and exits 2 on an unknown flag', async () => {
    const shown = await runScript('rotate-secrets', {}, ['--help']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Usage: npm run rotate-secrets');
    const wrong = await runScript('rotate-secrets', {}, ['--dry-run']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("Unknown option '--dry-run'");
    expect(wrong.stderr).toContain('Usage: npm run rotate-secrets');
  });
});

describe('npm run rotate-secrets on PostgreSQL', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses at once while a bot holds the store, then re-seals once it is free', async () => {
    const [k1, k2] = [base64Key(), base64Key()];
    const target: DatabaseTarget = { kind: 'postgres', url: await server.createDatabase() };
    const tokens = await sealUnder(k1, target);
    const env = { DATABASE_URL: target.url, SECRETS_KEY: k2, SECRETS_KEY_PREVIOUS: k1 };
    const lock = await holdStore(target, { onStandby: () => undefined, onLost: () => undefined });
    let refused;
    try {
      refused = await runScript('rotate-secrets', env);
    } finally {
      await lock.release();
    }
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('A bot holds the store');

    const run = await runScript('rotate-secrets', env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Re-sealed 9 secrets of 3 servers');
    const root = await openStore(target);
    const servers = new Servers(root, { current: secretKey(k2, 'SECRETS_KEY') }, undefined);
    await servers.load();
    for (const guildId of GUILDS) {
      expect(servers.credentials(guildId)).toEqual(credentialsOf(guildId));
      expect(servers.webhookToken(guildId)).toBe(tokens.get(guildId));
    }
    await root.close();
  });
});
