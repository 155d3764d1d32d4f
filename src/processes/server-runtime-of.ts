import type { Client } from 'discord.js';
import type { MemberNames } from '../bot/member-names.js';
import type { Poster } from '../bot/poster.js';
import type { Config } from '../config/bot.js';
import type { Logger } from '../core/log.js';
import type { BaseContext, TopggVoteOf } from '../runtime/context.js';
import type { ServerPasses } from '../runtime/server-passes.js';
import { startServerRuntime } from '../runtime/server-runtime.js';
import type { ServerRuntime } from '../runtime/running-server.js';
import type { Servers } from '../servers/servers.js';
import { serverClient, type ServiceClients } from '../servers/service-clients.js';
import type { StoreRoot } from '../store/index.js';

/** What a process opens at start that its servers' work and handlers are made from. */
export interface ProcessParts {
  config: Config;
  servers: Servers;
  clients: ServiceClients;
  client: Client;
  root: StoreRoot;
  base: BaseContext;
  logger: Logger;
  names: MemberNames;
}

/** A process's parts, with the poster and passes its servers' runtimes share. */
export interface RuntimeParts extends ProcessParts {
  poster: Poster;
  passes: ServerPasses;
  /** A member's running Top.gg vote the ledger lacks, asked of Top.gg (a gateway process's reads of it). */
  topggVote?: TopggVoteOf;
  /** The process's forwarding worker; none where no vote is taken (the HTTP-only tier's contexts). */
  forwards?: { wake(): void };
}

/** A set-up server's runtime (not started), for the gateway processes and the HTTP-only one alike. */
export function serverRuntimeOf(parts: RuntimeParts, guildId: string, firstPollAfterMs: number): ServerRuntime {
  const { topggVote, ...shared } = parts;
  const { servers, root, clients, logger } = shared;
  return startServerRuntime({
    ...shared,
    settings: servers.settings(guildId)!,
    listings: servers.listings,
    store: root.forServer(guildId),
    api: serverClient(clients, guildId),
    logger: logger.child({ guildId }),
    firstPollAfterMs,
    ...(topggVote ? { topggVote: (userId: string) => topggVote(guildId, userId) } : {}),
  });
}
