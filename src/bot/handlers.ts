import type {
  ButtonInteraction,
  ChatInputCommandInteraction,
  ModalSubmitInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { BotContext } from '../runtime/context.js';

/** A module in commands/: the builder as `data`, the handler as `execute`. */
export interface CommandModule {
  data: { name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  /**
   * Runs in a server that is not set up yet (/setup): it gets only the base context, whose server
   * fields are absent, and must not read them.
   */
  anyServer?: boolean;
  execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void>;
}

interface ComponentHandlerBase<Arg> {
  /** The custom-id prefix; also the handler's file name in src/interactions. */
  prefix: string;
  /** Cheap validation of the custom id's argument: null refuses the interaction unread. */
  parse(arg: string): Arg | null;
  /**
   * Only moderators may use it. The router checks every click and every submit, since a button can
   * be pressed by anyone who sees it and a form can be forged.
   */
  moderatorOnly?: boolean;
  /** As CommandModule.anyServer: the forms of /setup work before the server is set up. */
  anyServer?: boolean;
}

export interface ButtonHandler<Arg = unknown> extends ComponentHandlerBase<Arg> {
  kind: 'button';
  run(interaction: ButtonInteraction, arg: Arg, ctx: BotContext): Promise<void>;
}

export interface ModalHandler<Arg = unknown> extends ComponentHandlerBase<Arg> {
  kind: 'modal';
  run(interaction: ModalSubmitInteraction, arg: Arg, ctx: BotContext): Promise<void>;
}

export type ComponentHandler = ButtonHandler | ModalHandler;
