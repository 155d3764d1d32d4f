import { describe, it, expect, afterEach } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCommands } from '../../../src/bot/load-commands.js';
import { commandNames } from '../../support/command-names.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function commandsDir(files: Record<string, string>): Promise<URL> {
  dir = await mkdtemp(path.join(tmpdir(), 'commands-'));
  for (const [name, source] of Object.entries(files)) await writeFile(path.join(dir, name), source);
  return pathToFileURL(`${dir}/`);
}

const good = (name: string) =>
  `export const data = { name: '${name}', toJSON: () => ({ name: '${name}' }) };\nexport async function execute() {}\n`;

describe('loadCommands', () => {
  it('loads every command of the real commands folder, /setup among them', async () => {
    const commands = await loadCommands(new URL('../../../commands/', import.meta.url));
    expect([...commands.keys()].sort()).toEqual(commandNames());
    expect(commands.has('setup')).toBe(true);
    for (const command of commands.values()) expect(command.data.toJSON().description).toBeTruthy();
  });

  it('names the file and the export that is missing', async () => {
    const url = await commandsDir({
      'a.js': good('a'),
      'broken.js': `export const data = { name: 'b', toJSON() {} };\n`,
    });
    await expect(loadCommands(url)).rejects.toThrow('commands/broken.js must export "execute" (a function)');
  });

  it('names both exports when a module has neither', async () => {
    const url = await commandsDir({ 'empty.js': 'export const x = 1;\n' });
    await expect(loadCommands(url)).rejects.toThrow(/empty\.js must export "data" .* and "execute"/);
  });

  it('refuses two modules with one command name', async () => {
    const url = await commandsDir({ 'a.js': good('same'), 'b.js': good('same') });
    await expect(loadCommands(url)).rejects.toThrow('commands/b.js reuses the command name /same');
  });

  it('reads the gate a command declares', async () => {
    const url = await commandsDir({ 'mod.js': `${good('mod')}export const gate = 'moderator';\n` });
    expect((await loadCommands(url)).get('mod')?.gate).toBe('moderator');
  });

  it('refuses a gate that is not one, naming the gates there are', async () => {
    const url = await commandsDir({ 'admin.js': `${good('admin')}export const gate = 'admin';\n` });
    await expect(loadCommands(url)).rejects.toThrow(
      'commands/admin.js must export "gate" as one of member, moderator, manageServer',
    );
  });
});
