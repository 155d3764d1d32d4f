import { isDeepStrictEqual } from 'node:util';

type Json = Record<string, unknown>;

// Discord answers with every field filled in (defaults, ids, versions) and leaves out `required:
// false`; the builders send only what was set. Both sides are reduced to the fields a member can
// notice, with Discord's defaults removed, before they are compared.
const COMMAND_FIELDS = [
  'type',
  'name',
  'name_localizations',
  'description',
  'description_localizations',
  'options',
  'default_member_permissions',
  'contexts',
  'integration_types',
  'nsfw',
] as const;
const OPTION_FIELDS = [
  'type',
  'name',
  'name_localizations',
  'description',
  'description_localizations',
  'required',
  'choices',
  'options',
  'channel_types',
  'min_value',
  'max_value',
  'min_length',
  'max_length',
  'autocomplete',
] as const;
const CHOICE_FIELDS = ['name', 'name_localizations', 'value'] as const;
// The same defaults are dropped on both sides, so dropping option type 1 (a subcommand) is harmless.
const DEFAULTS: Json = { type: 1, nsfw: false, required: false, autocomplete: false };
/** Discord fills these in when the builder leaves them unset: compared only when the builder sets them. */
const FILLED_BY_DISCORD = new Set(['contexts', 'integration_types']);

function canonical(value: Json, fields: readonly string[]): Json {
  const out: Json = {};
  for (const field of fields) {
    let v = value[field];
    if (field === 'options' && Array.isArray(v)) v = v.map((option) => canonical(option as Json, OPTION_FIELDS));
    // A choice named alike in every language has no localizations: unset in the builder, absent or null from Discord.
    if (field === 'choices' && Array.isArray(v)) v = v.map((choice) => canonical(choice as Json, CHOICE_FIELDS));
    const empty = v === undefined || v === null || (typeof v === 'object' && Object.keys(v).length === 0);
    if (!empty && v !== DEFAULTS[field]) out[field] = v;
  }
  return out;
}

export interface CommandDiff {
  /** In commands/ but not registered. */
  missing: string[];
  /** Registered but no longer in commands/. */
  extra: string[];
  /** In both, with the fields that differ. */
  changed: Array<{ name: string; fields: string[] }>;
}

/**
 * What differs between the commands in commands/ (builder JSON) and those registered in Discord.
 * A field the builder leaves unset that Discord filled in with its own default is not a difference.
 */
export function diffCommands(local: readonly Json[], registered: readonly Json[]): CommandDiff {
  const remote = new Map(registered.map((command) => [String(command.name), canonical(command, COMMAND_FIELDS)]));
  const diff: CommandDiff = { missing: [], extra: [], changed: [] };
  const names = new Set<string>();
  for (const command of local) {
    const name = String(command.name);
    names.add(name);
    const mine = canonical(command, COMMAND_FIELDS);
    const theirs = remote.get(name);
    if (!theirs) {
      diff.missing.push(name);
      continue;
    }
    const fields = COMMAND_FIELDS.filter(
      (field) => (field in mine || !FILLED_BY_DISCORD.has(field)) && !isDeepStrictEqual(mine[field], theirs[field]),
    );
    if (fields.length > 0) diff.changed.push({ name, fields });
  }
  diff.extra = [...remote.keys()].filter((name) => !names.has(name));
  return diff;
}

/** One phrase per difference; empty when the registered commands are those of commands/. */
export function diffPhrases(diff: CommandDiff): string[] {
  return [
    ...diff.missing.map((name) => `/${name} is not registered`),
    ...diff.extra.map((name) => `/${name} is registered but not in commands/`),
    ...diff.changed.map(({ name, fields }) => `/${name} differs in ${fields.join(', ')}`),
  ];
}

export function describeDiff(diff: CommandDiff): string {
  return diffPhrases(diff).join('; ');
}
