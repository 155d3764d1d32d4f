import { describe, expect, it } from '@jest/globals';
import { loadCommands } from '../../../src/bot/load-commands.js';
import { describeDiff, diffCommands } from '../../../src/guild-rules/command-diff.js';

const commands = await loadCommands(new URL('../../../commands/', import.meta.url));
type Option = Record<string, unknown> & { required?: boolean };
type Command = Record<string, unknown> & { name: string; options?: Option[] };
const local = [...commands.values()].map((c) => c.data.toJSON() as unknown as Command);

/** What Discord answers for a registered command: ids and defaults filled in, `required: false` left out. */
function asDiscordReturns(command: Command): Command {
  return {
    id: '1300000000000000001',
    application_id: '981489785241731072',
    version: '1300000000000000002',
    default_member_permissions: null,
    type: 1,
    dm_permission: true,
    integration_types: [0],
    nsfw: false,
    ...command,
    options: command.options?.map(({ required, ...option }) => (required ? { ...option, required } : option)),
  };
}

describe('diffCommands', () => {
  it('finds no difference between commands/ and what Discord returns for them', () => {
    expect(diffCommands(local, local.map(asDiscordReturns))).toEqual({ missing: [], extra: [], changed: [] });
  });

  it('finds none after a round trip through JSON, where a choice with no localizations loses the unset field', () => {
    const overTheWire = local.map((c) => JSON.parse(JSON.stringify(asDiscordReturns(c))) as Command);
    expect(diffCommands(local, overTheWire)).toEqual({ missing: [], extra: [], changed: [] });
  });

  it('names a missing, an extra and a changed command', () => {
    const registered = local
      .filter((c) => c.name !== 'votes')
      .map((c) => (c.name === 'vote' ? { ...c, description: 'old' } : c))
      .concat([{ name: 'ping', description: 'gone', type: 1 }])
      .map(asDiscordReturns);
    const diff = diffCommands(local, registered);
    expect(diff).toEqual({ missing: ['votes'], extra: ['ping'], changed: [{ name: 'vote', fields: ['description'] }] });
    expect(describeDiff(diff)).toBe(
      '/votes is not registered; /ping is registered but not in commands/; /vote differs in description',
    );
  });

  it('sees a changed option and lost localizations', () => {
    const registered = local.map((c) =>
      c.name === 'review'
        ? asDiscordReturns({
            ...c,
            name_localizations: undefined,
            options: c.options?.map((o, i) => (i === 0 ? { ...o, required: true } : o)),
          })
        : asDiscordReturns(c),
    );
    expect(diffCommands(local, registered).changed).toEqual([
      { name: 'review', fields: ['name_localizations', 'options'] },
    ]);
  });
});
