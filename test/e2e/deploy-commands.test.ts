import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { commandNames } from '../support/command-names.js';
import { spawn } from 'node:child_process';
import { blankedConfig, ROOT } from '../../tools/bot-process.js';
import { startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';

function deploy(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['dist/src/processes/deploy-commands.js', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...blankedConfig(), ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run deploy-commands', () => {
  let discord: DiscordStandIn;
  beforeAll(async () => {
    discord = await startDiscordStandIn();
  });
  afterAll(async () => {
    await discord?.close();
  });

  const envFor = (d: DiscordStandIn, overrides: Record<string, string> = {}) => ({
    DISCORD_TOKEN: d.token,
    DISCORD_CLIENT_ID: d.applicationId,
    DISCORD_GUILD_ID: d.guildId,
    DISCORD_API_URL: d.apiUrl,
    ...overrides,
  });

  it('registers every command of commands/ (/setup too) in the guild with one bulk overwrite and prints them', async () => {
    const result = await deploy(envFor(discord));
    expect(result.code).toBe(0);
    const puts = discord.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]?.path).toBe(`/applications/${discord.applicationId}/guilds/${discord.guildId}/commands`);
    const names = discord
      .registeredCommands()
      .map((c) => c.name)
      .sort();
    expect(names).toEqual(commandNames());
    expect(names).toContain('setup');
    expect(result.stdout).toMatch(new RegExp(`Registered ${names.length} commands`));
    for (const name of names) expect(result.stdout).toContain(`/${name} (`);
  });

  it('registers guild-only commands whose options are a member and a public switch', async () => {
    const vote = discord.registeredCommands().find((c) => c.name === 'vote');
    expect(vote?.contexts).toEqual([0]);
    expect(vote?.options.map((o: { name: string; type: number }) => [o.name, o.type])).toEqual([
      ['member', 6],
      ['public', 5],
    ]);
  });

  it('registers each command with its name and description in German, French, Spanish and Portuguese', async () => {
    const review = discord.registeredCommands().find((c) => c.name === 'review');
    expect(review?.name_localizations).toMatchObject({ de: 'bewertung', fr: 'avis', 'pt-BR': 'avaliação' });
    expect(review?.description_localizations?.['es-ES']).toBe('Muestra la reseña de un miembro sobre este servidor');
    expect(review?.options[0]?.name_localizations).toMatchObject({ de: 'mitglied', 'es-419': 'miembro' });
  });

  it('says the token is wrong, without printing it, when Discord answers 401', async () => {
    const result = await deploy(envFor(discord, { DISCORD_TOKEN: 'wrong-token-value' }));
    expect(result.code).toBe(78);
    expect(result.stderr).toMatch(/Discord rejected DISCORD_TOKEN/);
    expect(result.stderr + result.stdout).not.toContain('wrong-token-value');
  });

  it('needs only the Discord settings, and names the missing ones', async () => {
    const result = await deploy({ DISCORD_TOKEN: 'x' });
    expect(result.code).toBe(78);
    expect(result.stderr).toMatch(/DISCORD_CLIENT_ID is missing/);
    expect(result.stderr).not.toMatch(/SERVICE_|DISCORD_GUILD_ID/);
  });

  it('--dry-run says the registered commands are those of commands/, reading only', async () => {
    const before = discord.requests.length;
    const result = await deploy(envFor(discord), ['--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `Dry run: the ${commandNames().length} commands registered in guild ${discord.guildId} are those of commands/; nothing to change.\n`,
    );
    const made = discord.requests.slice(before);
    expect(made.map((r) => [r.method, r.path])).toEqual([
      ['GET', `/applications/${discord.applicationId}/guilds/${discord.guildId}/commands`],
    ]);
  });

  it('--dry-run prints what deploying would change and makes no write request', async () => {
    const before = discord.requests.length;
    // Nothing is registered globally yet: every command would be added.
    const result = await deploy(envFor(discord, { DISCORD_GUILD_ID: '' }), ['--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'Dry run: deploying would change the commands registered globally (every server); nothing was changed:',
      ...commandNames().map((name) => `  /${name} is not registered`),
      '',
    ]);
    const made = discord.requests.slice(before);
    expect(made.length).toBeGreaterThan(0);
    expect(made.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('registers the commands globally when no server is named, for a bot that serves many', async () => {
    const before = discord.requests.length;
    const result = await deploy(envFor(discord, { DISCORD_GUILD_ID: '' }));
    expect(result.code).toBe(0);
    const puts = discord.requests.slice(before).filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.path)).toEqual([`/applications/${discord.applicationId}/commands`]);
    expect((puts[0]?.body as Array<{ name: string }>).map((c) => c.name).sort()).toEqual(commandNames());
    expect(result.stdout).toMatch(/globally/);
  });
});
