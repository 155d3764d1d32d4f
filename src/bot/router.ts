import type { Interaction, RepliableInteraction } from 'discord.js';
import { secretValues } from '../config/bot.js';
import { decodeCustomId, type DecodedCustomId } from '../core/custom-id.js';
import type { CommandModule, ComponentHandler, RouterContext } from './handlers.js';
import { translatorFor } from '../i18n/index.js';
import { errorOutcome } from './error-outcome.js';
import { checkGate } from './permissions.js';
import { sendError } from './send-error.js';
import { UserFacingError } from './user-error.js';

export interface RouterOptions<Ctx extends RouterContext> {
  commands: ReadonlyMap<string, CommandModule<Ctx>>;
  components: readonly ComponentHandler<Ctx>[];
  /** What a handler that works in any server gets (`anyServer`): the context less the server's part. */
  base: RouterContext;
  /** The context of a set-up server's interactions; undefined when the server is not set up. */
  contextFor: (guildId: string) => Ctx | undefined;
  /** Single-server mode: interactions from any other server are refused. */
  onlyGuildId?: string;
  /** Told the same facts as the log line, once per interaction (metrics). Must not throw. */
  onHandled?: (info: HandledInfo) => void;
}

export interface HandledInfo {
  interactionId: string;
  handler: string;
  userId: string;
  outcome: string;
  durationMs: number;
  /** Why it failed, as a bounded label, when outcome is not 'ok'. */
  reason?: string;
}

export type Router = (interaction: Interaction) => Promise<void>;

/**
 * Sends each interaction to its handler. It never throws: every failure becomes a message to the
 * user and one log line with the interaction id, its handler, the outcome and the time it took.
 */
export function createRouter<Ctx extends RouterContext>({
  commands,
  components,
  base,
  contextFor,
  onlyGuildId,
  onHandled,
}: RouterOptions<Ctx>): Router {
  const byPrefix = new Map(components.map((handler) => [handler.prefix, handler]));
  return async (interaction) => {
    if (!interaction.isRepliable()) return;
    const started = performance.now();
    const component = componentOf(interaction);
    const handler = describe(interaction, component, commands, byPrefix);
    let outcome = 'ok';
    let reason: string | undefined;
    const { guildId } = interaction;
    try {
      if (guildId === null)
        throw new UserFacingError(
          onlyGuildId === undefined ? 'refusal.directMessage' : 'refusal.directMessageOneServer',
        );
      if (onlyGuildId !== undefined && guildId !== onlyGuildId) throw new UserFacingError('refusal.wrongServer');
      await dispatch(interaction, component, commands, byPrefix, base, () => contextFor(guildId));
    } catch (error) {
      const result = errorOutcome(error, translatorFor(interaction.locale), secretValues(base.config));
      ({ outcome, reason } = result);
      await sendError(interaction, error, result, base.logger);
    } finally {
      const durationMs = performance.now() - started;
      base.logger.info(
        {
          interactionId: interaction.id,
          guildId,
          handler,
          userId: interaction.user.id,
          outcome,
          ms: Math.round(durationMs),
        },
        'interaction handled',
      );
      try {
        onHandled?.({
          interactionId: interaction.id,
          handler,
          userId: interaction.user.id,
          outcome,
          durationMs,
          reason,
        });
      } catch {
        // An observer's failure must never reach the user's interaction.
      }
    }
  };
}

async function dispatch<Ctx extends RouterContext>(
  interaction: RepliableInteraction,
  component: Component | null,
  commands: ReadonlyMap<string, CommandModule<Ctx>>,
  byPrefix: ReadonlyMap<string, ComponentHandler<Ctx>>,
  base: RouterContext,
  server: () => Ctx | undefined,
): Promise<void> {
  // /setup and its forms work in a server that is not set up; everything else needs the server's context.
  const contextOf = (anyServer: boolean | undefined): Ctx => {
    if (anyServer) return base as Ctx;
    const ctx = server();
    if (!ctx) throw new UserFacingError('refusal.notSetUp', { setup: '`/setup credentials`' });
    return ctx;
  };
  if (interaction.isChatInputCommand()) {
    const command = commands.get(interaction.commandName);
    if (!command) throw new UserFacingError('refusal.staleCommand');
    const ctx = contextOf(command.anyServer);
    checkGate(interaction, command, ctx.settings?.moderatorRoleIds ?? []);
    return command.execute(interaction, ctx);
  }
  if (component) {
    const { kind, decoded } = component;
    const handler = decoded && byPrefix.get(decoded.prefix);
    if (!decoded || !handler || handler.kind !== kind) throw new UserFacingError('refusal.staleComponent');
    const arg = handler.parse(decoded.arg);
    if (arg === null) throw new UserFacingError('refusal.staleComponent');
    const ctx = contextOf(handler.anyServer);
    checkGate(interaction, handler, ctx.settings?.moderatorRoleIds ?? []);
    // The kind check above makes these casts exact.
    if (handler.kind === 'button') return handler.run(interaction as never, arg, ctx);
    return handler.run(interaction as never, arg, ctx);
  }
  throw new UserFacingError('refusal.unsupported');
}

/** A button or modal submit with its custom id read once, for routing and for the log line. */
interface Component {
  kind: 'button' | 'modal';
  decoded: DecodedCustomId | null;
}

function componentOf(interaction: RepliableInteraction): Component | null {
  if (interaction.isButton()) return { kind: 'button', decoded: decodeCustomId(interaction.customId) };
  if (interaction.isModalSubmit()) return { kind: 'modal', decoded: decodeCustomId(interaction.customId) };
  return null;
}

/**
 * The handler's name for the log line and the metrics label: only names the bot registered, so
 * forged command names and custom ids cannot grow the number of series; anything else is `unknown`.
 */
function describe<Ctx>(
  interaction: RepliableInteraction,
  component: Component | null,
  commands: ReadonlyMap<string, CommandModule<Ctx>>,
  byPrefix: ReadonlyMap<string, ComponentHandler<Ctx>>,
): string {
  if (interaction.isChatInputCommand()) {
    return commands.has(interaction.commandName) ? `/${interaction.commandName}` : UNKNOWN;
  }
  if (component) {
    const prefix = component.decoded?.prefix;
    return prefix !== undefined && byPrefix.get(prefix)?.kind === component.kind
      ? `${component.kind}:${prefix}`
      : UNKNOWN;
  }
  return UNKNOWN;
}

const UNKNOWN = 'unknown';
