import type { ServiceClients } from '../servers/service-clients.js';
import type { ServerChanges, SetupPorts } from '../runtime/setup-ports.js';
import { newestOfEachWindow, type DeliveryRecord, type StoreRoot } from '../store/index.js';
import { storeWithDeadline } from '../store/within.js';
import { DELIVERIES_KEPT } from '../webhooks/delivery-log.js';

/** /setup's ports over the store and the service clients, for `npm start` and `npm run interactions`. */
export function setupPorts(deps: {
  store: StoreRoot;
  servers: ServerChanges;
  clients: ServiceClients;
  commands: Iterable<{ data: { toJSON(): unknown } }>;
  /** Tells the process that runs the server's milestone roles; called long after this is made. */
  milestonesChanged: (guildId: string) => void;
  /** The delivery log lines this process took and has not written yet, newest first (none: another process's). */
  unwrittenDeliveries?: (guildId: string) => readonly DeliveryRecord[];
}): SetupPorts {
  const { store, clients } = deps;
  return {
    changes: deps.servers,
    checkService: (guildId) => clients.forServer(guildId).checkConnection(),
    forgetClient: (guildId) => clients.forget(guildId),
    lastDeliveryAt: (guildId) => store.forServer(guildId).lastDeliveryAt(),
    milestones: (guildId) =>
      storeWithDeadline(store.forServer(guildId), ['milestones', 'setMilestone', 'removeMilestone']),
    milestonesChanged: deps.milestonesChanged,
    lastPoll: async (guildId) => {
      const server = store.forServer(guildId);
      const last = await server.lastPoll();
      if (last) return last;
      // A store from before polls were recorded with their outcome: its last successful poll.
      const polledAt = (await server.mirrorTotals())?.polledAt;
      return polledAt === undefined ? undefined : { at: polledAt, ok: true };
    },
    // A delivery's check mark shows at once (its event is stored first); its log line would wait for the log's next write.
    recentDeliveries: async (guildId) => {
      const stored = await store.forServer(guildId).recentDeliveries(DELIVERIES_KEPT);
      return newestOfEachWindow([...(deps.unwrittenDeliveries?.(guildId) ?? []), ...stored], DELIVERIES_KEPT);
    },
    apiKeys: storeWithDeadline(store, ['apiKeys', 'addApiKey', 'removeApiKey']),
    topggReads: (guildId) => store.topggRecovery(guildId),
    commands: [...deps.commands].map((command) => command.data.toJSON() as unknown as Record<string, unknown>),
  };
}
