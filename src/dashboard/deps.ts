import type { Guild, GuildMember } from 'discord.js';
import type { DashboardSettings } from '../config/dashboard.js';
import type { Logger } from '../core/log.js';
import type { BaseContext, BotContext } from '../runtime/context.js';
import type { FeedReview, SignOutStore, UnansweredPage } from '../store/index.js';

/**
 * The servers as the bot sees them: its guild cache under `npm start`, REST reads under
 * `npm run dashboard` (no gateway there). Who may see or change a server is decided from this view.
 */
export interface BotView {
  /** The server with its channels, roles and the bot's own member; undefined when the bot is not in it. */
  guild(guildId: string): Promise<Guild | undefined>;
  /** The member as the bot sees them (permissions from their roles and ownership); undefined if not a member. */
  member(guild: Guild, userId: string): Promise<GuildMember | undefined>;
}

/** What the dashboard is built from; processes/ hands it in, as it does the handlers' context. */
export interface DashboardDeps {
  readonly settings: DashboardSettings;
  /** The application id: OAuth2's client_id. */
  readonly clientId: string;
  /** DISCORD_API_URL (without /v10), where the token exchange and the member's reads go; undefined: Discord. */
  readonly apiUrl: string | undefined;
  /** The same context `/setup` gets: settings, ports and clients. */
  readonly base: BaseContext;
  readonly view: BotView;
  /** Reads the server's settings again when another process may have changed them (no-op in `npm start`). */
  readonly refresh: (guildId: string) => Promise<void>;
  /** The reviews no one has answered yet, oldest first. */
  readonly unanswered: (guildId: string, limit: number, offset: number) => Promise<UnansweredPage>;
  /** Where ended sign-ins are kept (the store): a restart or another process refuses them too. */
  readonly signOuts: SignOutStore;
  /** One review the bot received, answered or not; undefined when it never came to this server. */
  readonly review: (guildId: string, reviewId: string) => Promise<FeedReview | undefined>;
  /** A set-up server's context, as its handlers get it (service client, stats, feed); undefined: not set up. */
  readonly context: (guildId: string) => Promise<BotContext | undefined>;
  readonly logger: Logger;
  readonly now?: () => number;
  /** How often sign-outs are read (and unwritten ones written again); SIGN_OUTS_READ_MS unless a test shortens it. */
  readonly signOutsReadMs?: number;
}
