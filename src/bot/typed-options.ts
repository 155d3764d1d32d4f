import type {
  ChatInputCommandInteraction,
  SlashCommandBooleanOption,
  SlashCommandChannelOption,
  SlashCommandIntegerOption,
  SlashCommandRoleOption,
  SlashCommandStringOption,
  SlashCommandSubcommandBuilder,
} from 'discord.js';
import { UserFacingError } from './user-error.js';

/** Each option type a command declares: the builder that shapes it and what its value arrives as. */
interface Kinds {
  string: { builder: SlashCommandStringOption; value: string };
  integer: { builder: SlashCommandIntegerOption; value: number };
  boolean: { builder: SlashCommandBooleanOption; value: boolean };
  /** The role's id. */
  role: { builder: SlashCommandRoleOption; value: string };
  /** The channel's id. */
  channel: { builder: SlashCommandChannelOption; value: string };
}

type OptionKind = keyof Kinds;
type Shape<K extends OptionKind> = (builder: Kinds[K]['builder']) => Kinds[K]['builder'];

/** One option as a command's data declares it: the builder and the reader both come from it. */
interface OptionSpec<K extends OptionKind = OptionKind, R extends boolean = boolean> {
  readonly kind: K;
  readonly required: R;
  /** Bounds, choices and channel types, beyond the name and description every option gets. */
  readonly shape?: Shape<K>;
}

/** Any one option: a union over the kinds, so each shape takes its own builder. */
export type AnyOptionSpec = { [K in OptionKind]: OptionSpec<K> }[OptionKind];

/** A subcommand's options by name, in the order Discord shows them (required ones first). */
export type OptionSpecs = Readonly<Partial<Record<string, AnyOptionSpec>>>;

/** What a subcommand's options arrive as: a required one is always there, another undefined when left out. */
export type OptionValues<S extends OptionSpecs> = {
  readonly [P in keyof S]: S[P] extends { readonly kind: infer K extends OptionKind; readonly required: infer R }
    ? R extends true
      ? Kinds[K]['value']
      : Kinds[K]['value'] | undefined
    : never;
};

function declare<K extends OptionKind>(kind: K) {
  return {
    optional: (shape?: Shape<K>): OptionSpec<K, false> => ({ kind, required: false, shape }),
    required: (shape?: Shape<K>): OptionSpec<K, true> => ({ kind, required: true, shape }),
  };
}

export const stringOption = declare('string');
export const integerOption = declare('integer');
export const booleanOption = declare('boolean');
export const roleOption = declare('role');
export const channelOption = declare('channel');

/** Adds the declared options to a subcommand, each named by `named` and shaped as declared. */
export function addOptions(
  sub: SlashCommandSubcommandBuilder,
  specs: OptionSpecs,
  named: (name: string) => <T extends Kinds[OptionKind]['builder']>(builder: T) => T,
): SlashCommandSubcommandBuilder {
  for (const [name, spec] of Object.entries(specs)) {
    if (!spec) continue;
    const shaped = <B extends Kinds[OptionKind]['builder']>(builder: B): B => {
      named(name)(builder).setRequired(spec.required);
      return (spec.shape ? (spec.shape as unknown as (b: B) => B)(builder) : builder) as B;
    };
    if (spec.kind === 'string') sub.addStringOption(shaped);
    else if (spec.kind === 'integer') sub.addIntegerOption(shaped);
    else if (spec.kind === 'boolean') sub.addBooleanOption(shaped);
    else if (spec.kind === 'role') sub.addRoleOption(shaped);
    else sub.addChannelOption(shaped);
  }
  return sub;
}

const TYPE_OF: Record<OptionKind, 'string' | 'number' | 'boolean'> = {
  string: 'string',
  integer: 'number',
  boolean: 'boolean',
  role: 'string',
  channel: 'string',
};

/**
 * The declared options as the interaction carries them, typed from the declaration. Discord sends the
 * English name whatever the member's language (`nameOf` gives it). A value of the wrong type, or a
 * required one missing, is a command registered before its data changed: refused as stale.
 */
export function readOptions<S extends OptionSpecs>(
  interaction: ChatInputCommandInteraction,
  specs: S,
  nameOf: (name: string) => string,
): OptionValues<S> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    if (!spec) continue;
    const value = interaction.options.get(nameOf(name))?.value;
    if (value === undefined && !spec.required) continue;
    if (typeof value !== TYPE_OF[spec.kind]) throw new UserFacingError('refusal.staleCommand');
    values[name] = value;
  }
  return values as OptionValues<S>;
}
