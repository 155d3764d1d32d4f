import type { ConnectionCheck } from '../api/index.js';
import type { Forwards } from '../servers/forwards.js';
import type { Listings } from '../servers/listings.js';
import type { Servers } from '../servers/servers.js';
import type { ApiKeyStore, DeliveryRecord, MilestoneStore, PollRecord, TopggRecoveryState } from '../store/index.js';

/** The changes /setup makes to a server's settings, secrets, listings and destinations: no other handler's. */
export type ServerChanges = Pick<Servers, 'setSettings' | 'setCredentials' | 'newWebhookToken' | 'reset'> & {
  readonly listings: Pick<Listings, 'add' | 'remove' | 'setVoteLength' | 'setApiToken'>;
  readonly forwards: Pick<Forwards, 'make' | 'remove'>;
};

/** What /setup needs beyond the servers' settings, wired in processes/bot.ts: narrow, so the flows stay testable. */
export interface SetupPorts {
  /** The servers' changes (the directory every handler reads is ctx.servers). */
  readonly changes: ServerChanges;
  /** One GET /votes through the server's own client, so its rate limiter counts it like any other call. */
  checkService(guildId: string): Promise<ConnectionCheck>;
  /** The server's service client is made again on its next call: its credentials changed or were forgotten. */
  forgetClient(guildId: string): void;
  /** When the last webhook delivery for the server was accepted. */
  lastDeliveryAt(guildId: string): Promise<number | undefined>;
  /** The server's vote milestones in the store, each call bounded to leave time to answer. */
  milestones(guildId: string): Pick<MilestoneStore, 'milestones' | 'setMilestone' | 'removeMilestone'>;
  /** A milestone was set or removed: the server's milestone roles check every member again now. */
  milestonesChanged(guildId: string): void;
  /** When the server's votes were last polled, and how it went. */
  lastPoll(guildId: string): Promise<PollRecord | undefined>;
  /** What stops the server's reads of Top.gg votes missed while down (a refused token, a 429's block). */
  topggReads(guildId: string): Promise<TopggRecoveryState | undefined>;
  /** The server's delivery log, newest first. */
  recentDeliveries(guildId: string): Promise<DeliveryRecord[]>;
  /** The vote API's keys of every server, each call bounded to leave time to answer. */
  readonly apiKeys: Pick<ApiKeyStore, 'apiKeys' | 'addApiKey' | 'removeApiKey'>;
  /** The commands as commands/ defines them, in the shape deploy-commands registers. */
  readonly commands: ReadonlyArray<Record<string, unknown>>;
}
