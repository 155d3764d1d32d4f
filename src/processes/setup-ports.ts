import type { ServiceClients } from '../servers/service-clients.js';
import type { SetupPorts } from '../runtime/setup-ports.js';
import type { StoreRoot } from '../store/index.js';
import { storeWithDeadline } from '../store/within.js';
import { DELIVERIES_KEPT } from '../webhooks/delivery-log.js';

/** /setup's ports over the store and the service clients, for `npm start` and `npm run interactions`. */
export function setupPorts(deps: {
  store: StoreRoot;
  clients: ServiceClients;
  commands: Iterable<{ data: { toJSON(): unknown } }>;
  /** Tells the process that runs the server's milestone roles; called long after this is made. */
  milestonesChanged: (guildId: string) => void;
}): SetupPorts {
  const { store, clients } = deps;
  return {
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
    recentDeliveries: (guildId) => store.forServer(guildId).recentDeliveries(DELIVERIES_KEPT),
    commands: [...deps.commands].map((command) => command.data.toJSON() as unknown as Record<string, unknown>),
  };
}
