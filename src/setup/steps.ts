import type { ChatInputCommandInteraction } from 'discord.js';
import { commandActor, type Actor } from '../bot/actor.js';
import { setupName, type SetupPart } from '../bot/command-options.js';
import { readOptions, type AnyOptionSpec, type OptionSpecs, type OptionValues } from '../bot/typed-options.js';
import { translatorFor, type Translator } from '../i18n/index.js';
import type { BaseContext } from '../runtime/context.js';
import type { MessageView } from '../views/message.js';
import { changeAnswer, commandTarget, type ChangeResult, type ChangeTarget } from './change.js';

/** Where a /setup step runs: the server, the member making the change, and the member's language. */
export interface SetupCall {
  readonly target: ChangeTarget;
  readonly actor: Actor;
  readonly i18n: Translator;
}

/** A /setup subcommand: its options as declared (the builder is made from them) and its answer. */
export interface SetupStep {
  readonly options: OptionSpecs;
  answer(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView>;
}

/** Options named by parts of /setup only: each has its name and description in the catalogs. */
type SetupOptions = Readonly<Partial<Record<SetupPart, AnyOptionSpec>>>;

/** A step whose answer is its own: its options are read typed from their declaration, then `answer` runs. */
export function setupStep<S extends SetupOptions>(
  options: S,
  answer: (ctx: BaseContext, input: OptionValues<S>, call: SetupCall) => Promise<MessageView> | MessageView,
): SetupStep {
  return {
    options,
    answer: async (interaction, ctx) => {
      const input = readOptions(interaction, options, (part) => setupName(part as SetupPart));
      const i18n = translatorFor(interaction.locale);
      return answer(ctx, input, { target: commandTarget(interaction), actor: commandActor(interaction), i18n });
    },
  };
}

/** A step that is one change: the options are the change's input, the answer the change's notice. */
export function setupChange<S extends SetupOptions>(
  options: S,
  apply: (ctx: BaseContext, target: ChangeTarget, input: OptionValues<S>, actor: Actor) => Promise<ChangeResult>,
): SetupStep {
  return setupStep(options, async (ctx, input, { target, actor, i18n }) =>
    changeAnswer(await apply(ctx, target, input, actor), i18n),
  );
}
