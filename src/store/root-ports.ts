import type { ShardSet } from '../shards/ownership.js';
import type { DueExpiryOf, DueListReminderOf, SweepCursor, WaitingWork } from './types.js';
import type {
  ApiKeyRecord,
  DeliveryRecord,
  DueForward,
  ForwardDestinationRecord,
  ForwardResult,
  InteractionClaim,
  ListingActivity,
  ListingRecord,
  NewEvent,
  SealedKeyUse,
  ServerRecord,
  StoredEvent,
  TopggRecoveryState,
  WorkCounts,
} from './root-types.js';
import type { Store } from './ports.js';

// The ports over every server at once: what the entry points and the sweeps hold; one server's rows go
// through `forServer` (ports.ts).

/** The webhook inbox: every server's accepted deliveries, until each has been handled. */
export interface EventStore {
  addEvent(guildId: string, kind: string, payload: unknown, receivedAt: number): Promise<number>;
  /** addEvent for many deliveries in one statement (one commit); their ids, in the order given. */
  addEvents(events: readonly NewEvent[]): Promise<number[]>;
  /** Unhandled events due by `now` (all of them without it), oldest first; only servers on `shards` if given. */
  pendingEvents(limit: number, now?: number, shards?: ShardSet): Promise<StoredEvent[]>;
  markEventHandled(id: number, at: number): Promise<void>;
  /** markEventHandled for a drained batch, in one statement. */
  markEventsHandled(ids: readonly number[], at: number): Promise<void>;
  /** Handling failed: the event waits until `nextAt`, then is tried again. */
  deferEvent(id: number, attempts: number, nextAt: number): Promise<void>;
  /** When the soonest deferred event is due, if any is waiting (of servers on `shards` if given). */
  nextEventDue(shards?: ShardSet): Promise<number | undefined>;
  /**
   * Deletes up to `limit` events handled before `before`, oldest handled first (of servers on
   * `shards` if given); never an unhandled one, nor a server's newest (its last delivery's time).
   * How many went.
   */
  dropHandledEvents(before: number, limit: number, shards?: ShardSet): Promise<number>;
}

/** The delivery log's writer, for every server at once. */
export interface DeliveryLogStore {
  /** Appends to the delivery log, then keeps only each touched server's newest `keep` lines of each window. */
  recordDeliveries(entries: readonly DeliveryRecord[], keep: number): Promise<void>;
}

/** The servers the bot serves or served: their settings and sealed secrets. */
export interface ServerRecordStore {
  server(guildId: string): Promise<ServerRecord | undefined>;
  /** Every server known, the ones the bot left included. */
  servers(): Promise<ServerRecord[]>;
  /** Servers that take webhook deliveries: set up (credentials, and a webhook token or a listing) and not left. Ids only. */
  webhookServerIds(): Promise<string[]>;
  saveServer(record: ServerRecord): Promise<void>;
  /** Deletes the server and every row it has. */
  forgetServer(guildId: string): Promise<void>;
  /** Gives rows written before servers existed (a single-server store) to this server; returns how many. */
  adoptUnowned(guildId: string): Promise<number>;
  /** Which keys sealed the stored secrets, read from the values' heads only (one pass, no secret read whole). */
  sealedKeyUses(): Promise<SealedKeyUse[]>;
}

/** The lists besides Guilds each server takes votes from, with their sealed secrets. */
export interface ListingStore {
  /** Every server's listings, or one server's. */
  listings(guildId?: string): Promise<ListingRecord[]>;
  /**
   * Adds the listing, or replaces its secret and settings. Its last delivery and test are written
   * by listingDelivered alone; a record with neither (a new secret) starts them afresh.
   */
  saveListing(record: ListingRecord): Promise<void>;
  /** Whether there was one to remove. */
  removeListing(guildId: string, site: string): Promise<boolean>;
  /**
   * A delivery from the list was handled at `at`; a test one is also its last test. Kept for a
   * list with no row too: single-server mode's, set by LISTING_<SITE>_SECRET.
   */
  listingDelivered(guildId: string, site: string, at: number, test: boolean): Promise<void>;
  /** The server's last delivery and test per site, rows or not. */
  listingActivity(guildId: string): Promise<ListingActivity[]>;
  /** Sealed secrets replaced in place (rotate-secrets), keeping everything else. */
  resealListings(records: readonly Pick<ListingRecord, 'guildId' | 'site' | 'secret' | 'apiToken'>[]): Promise<void>;
}

/** Top.gg votes read back after downtime (sql-topgg-recovery.ts), for every server. */
export interface TopggRecoveryStore {
  /** The server's latest vote on `site` in the ledger cast before `before` (ms): where a read of the list starts. */
  latestListVote(guildId: string, site: string, before: number): Promise<number | undefined>;
  /** Every server whose reads something stops (a parked token, a 429's hour). */
  topggRecoveryStates(): Promise<Map<string, TopggRecoveryState>>;
  /** What stops one server's reads, if anything (/setup status). */
  topggRecovery(guildId: string): Promise<TopggRecoveryState | undefined>;
  /** Writes what stops the server's reads; undefined: nothing does. */
  saveTopggRecovery(guildId: string, state: TopggRecoveryState | undefined): Promise<void>;
}

/**
 * What a process's passes read over every server at once (sql-sweeps.ts): due vote ends and
 * reminders, which servers have milestones, which channels have work waiting.
 */
export interface SweepStore {
  /** Due vote ends of every server, oldest first, after `after` (a page's last row). */
  dueExpiriesAll(now: number, after: SweepCursor | undefined, limit: number): Promise<DueExpiryOf[]>;
  /** The next vote end after `now`, of any server. */
  nextExpiryAfter(now: number): Promise<number | undefined>;
  /**
   * Opted-in members' votes whose period ended in (after, upTo], of every server, soonest first,
   * after `cursor`, at most `limit`: every list's but Guilds', and a Guilds vote's only while a vote
   * on another list runs on past it (the expiry schedule reminds of Guilds' when its end is the
   * member's last). A list voted on again since is left out.
   */
  dueListRemindersAll(
    after: number,
    upTo: number,
    cursor: SweepCursor | undefined,
    limit: number,
  ): Promise<DueListReminderOf[]>;
  nextListReminderAfter(after: number): Promise<number | undefined>;
  serversWithMilestones(): Promise<Set<string>>;
  /** What each server with anything waiting has waiting for its channels; a server not in it has nothing. */
  workWaitingAll(): Promise<Map<string, WaitingWork>>;
  /** The channels of every server with a feed post due a redraw (an answer recorded, the post not redrawn yet). */
  dueRedrawsAll(): Promise<Array<{ guildId: string; channelId: string }>>;
}

/** The places each server's votes are forwarded to (issue 51). */
export interface ForwardDestinationStore {
  /** The server's destinations (every server's without one), oldest first, each with its last result and what waits. */
  forwardDestinations(guildId?: string): Promise<ForwardDestinationRecord[]>;
  /** Adds the destination, or gives it a new secret (its log starts afresh). */
  saveForwardDestination(
    record: Pick<
      ForwardDestinationRecord,
      'guildId' | 'id' | 'url' | 'secret' | 'secretEnd' | 'fromEnvironment' | 'createdAt'
    >,
  ): Promise<void>;
  /** Removes it and the deliveries waiting for it; whether there was one. */
  removeForwardDestination(guildId: string, id: string): Promise<boolean>;
  /** Sealed secrets replaced in place (rotate-secrets). */
  resealForwardDestinations(
    records: ReadonlyArray<Pick<ForwardDestinationRecord, 'guildId' | 'id' | 'secret'>>,
  ): Promise<void>;
}

/**
 * Forwarded votes waiting to be sent, for every server (the outbox is written with the ledger, in
 * sql-votes.ts): each destination's oldest first, one at a time.
 */
export interface ForwardOutboxStore {
  /** Each destination's oldest waiting delivery that is due by `now` (of servers on `shards` if given). */
  dueForwards(now: number, limit: number, shards?: ShardSet): Promise<DueForward[]>;
  /** When the soonest destination's next delivery is due, if any waits. */
  nextForwardDue(shards?: ShardSet): Promise<number | undefined>;
  /**
   * The attempt at `at` went as `result`: the delivery is done (delivered or given up) when `nextAt`
   * is undefined, else it waits until then. The destination's last result becomes this one.
   */
  forwardSettled(due: DueForward, result: ForwardResult, at: number, nextAt?: number): Promise<void>;
}

/** The dashboard's ended sign-ins (sql-sign-outs.ts): a signed-out cookie stays refused until it expires. */
export interface SignOutStore {
  /** Records a sign-in ended; rows past their `until` go at the same time. */
  endSignIn(sid: string, userId: string, until: number, now: number): Promise<void>;
  /** The sign-ins ended that would still be open at `now`: sid → until. */
  signOuts(now: number): Promise<Map<string, number>>;
}

/** The vote API's keys (sql-api-keys.ts), each bound to one server. */
export interface ApiKeyStore {
  /** The server's keys, oldest first. */
  apiKeys(guildId: string): Promise<ApiKeyRecord[]>;
  /** The key whose hash this is, of whichever server. */
  apiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /** Adds the key unless its name is taken in the server or the server holds `most` already. */
  addApiKey(record: ApiKeyRecord, most: number): Promise<'added' | 'taken' | 'full'>;
  /** The key removed, or undefined when the server has none of that name. */
  removeApiKey(guildId: string, name: string): Promise<ApiKeyRecord | undefined>;
}

/** Interactions answered over HTTP (sql-handled-interactions.ts): a replayed request runs nothing. */
export interface HandledInteractionStore {
  /**
   * Each id claimed for its server until `until`, in one statement (one commit): true where it is
   * claimed here for the first time, false where it was handled before or comes again in `claims`.
   */
  claimInteractions(claims: readonly InteractionClaim[]): Promise<boolean[]>;
  /** Drops the rows whose `until` has passed; returns how many went. */
  forgetHandledInteractions(now: number): Promise<number>;
}

/**
 * The store as a whole: the webhook inbox, the delivery log and the servers, for every server;
 * `forServer` gives one server's store, through which every other row is read and written.
 */
export interface StoreRoot
  extends
    EventStore,
    DeliveryLogStore,
    ServerRecordStore,
    ListingStore,
    SweepStore,
    SignOutStore,
    HandledInteractionStore,
    ApiKeyStore,
    TopggRecoveryStore,
    ForwardDestinationStore,
    ForwardOutboxStore {
  readonly backend: 'sqlite' | 'postgres';
  readonly driver: 'node:sqlite' | 'better-sqlite3' | 'pg';
  /** Highest migration applied. */
  schemaVersion(): Promise<number>;
  /** When the store was made: a single server's votes have been counted since then. */
  createdAt(): Promise<number>;
  forServer(guildId: string): Store;
  /** What waits and what is parked, over every server. */
  workCounts(): Promise<WorkCounts>;
  close(): Promise<void>;
}
