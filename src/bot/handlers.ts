import type {
  ButtonInteraction,
  ChatInputCommandInteraction,
  ModalSubmitInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { SecretSource } from '../config/bot.js';
import type { Logger } from '../core/log.js';
import type { Gated } from './permissions.js';

/**
 * What the router reads of the context it hands each handler. The full context (the servers, the
 * runtime's ports) is the runtime's: handlers here are generic over it, so the bot's core never
 * imports the features it serves.
 */
export interface RouterContext {
  /** What masks the secrets in an error shown to a member. */
  readonly config: SecretSource;
  readonly logger: Logger;
  /** Absent in a server that is not set up yet. */
  readonly settings?: { readonly moderatorRoleIds: readonly string[] };
}

/** A module in commands/: the builder as `data`, its gate, the handler as `execute`. */
export interface CommandModule<Ctx> extends Gated {
  data: { name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  /**
   * Runs in a server that is not set up yet (/setup): it gets only the base context, whose server
   * fields are absent, and must not read them.
   */
  anyServer?: boolean;
  execute(interaction: ChatInputCommandInteraction, ctx: Ctx): Promise<void>;
}

interface ComponentHandlerBase<Arg> extends Gated {
  /** The custom-id prefix; also the handler's file name in src/interactions. */
  prefix: string;
  /** Cheap validation of the custom id's argument: null refuses the interaction unread. */
  parse(arg: string): Arg | null;
  /** As CommandModule.anyServer: the forms of /setup work before the server is set up. */
  anyServer?: boolean;
}

export interface ButtonHandler<Arg, Ctx> extends ComponentHandlerBase<Arg> {
  kind: 'button';
  run(interaction: ButtonInteraction, arg: Arg, ctx: Ctx): Promise<void>;
}

export interface ModalHandler<Arg, Ctx> extends ComponentHandlerBase<Arg> {
  kind: 'modal';
  run(interaction: ModalSubmitInteraction, arg: Arg, ctx: Ctx): Promise<void>;
}

export type ComponentHandler<Ctx> = ButtonHandler<unknown, Ctx> | ModalHandler<unknown, Ctx>;
