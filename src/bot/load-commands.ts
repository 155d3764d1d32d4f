import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import type { CommandModule } from './handlers.js';
import { GATES } from './permissions.js';

const MODULE_FILE = /^[^.].*\.(js|ts)$/;

/**
 * Imports every command module in `dir` and checks its shape, naming the file and the missing
 * export, so a broken command stops the bot at start rather than at a member's first use.
 */
export async function loadCommands<Ctx>(dir: URL): Promise<Map<string, CommandModule<Ctx>>> {
  const dirPath = fileURLToPath(dir);
  const files = (await readdir(dirPath)).filter((f) => MODULE_FILE.test(f) && !f.endsWith('.d.ts')).sort();
  const commands = new Map<string, CommandModule<Ctx>>();
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(dirPath, file)).href)) as Partial<CommandModule<Ctx>>;
    const missing = [
      typeof module.data?.toJSON === 'function' && typeof module.data.name === 'string'
        ? null
        : '"data" (a SlashCommandBuilder)',
      typeof module.execute === 'function' ? null : '"execute" (a function)',
      module.gate === undefined || GATES.includes(module.gate) ? null : `"gate" as one of ${GATES.join(', ')}`,
    ].filter((m) => m !== null);
    if (missing.length > 0) {
      throw new Error(`commands/${file} must export ${missing.join(' and ')}; it does not.`);
    }
    const command = module as CommandModule<Ctx>;
    if (commands.has(command.data.name))
      throw new Error(`commands/${file} reuses the command name /${command.data.name}.`);
    commands.set(command.data.name, command);
  }
  return commands;
}
