// The rows over every server at once: the webhook inbox, the delivery log, the servers and their lists.

/** An accepted webhook delivery, kept until it has been handled (the outbox). */
export interface StoredEvent {
  id: number;
  /** The server the delivery was for. */
  guildId: string;
  kind: string;
  payload: unknown;
  receivedAt: number;
  /** Failed tries so far: the next one waits a backoff. */
  attempts: number;
}

/** A delivery to store in the inbox. */
export type NewEvent = Pick<StoredEvent, 'guildId' | 'kind' | 'payload' | 'receivedAt'>;

/**
 * What became of a webhook delivery: stored (new), duplicate (known already: Guilds delivers at least
 * once), refused for a wrong token, a malformed body, or another server's id in the body, ignored (a
 * kind the bot does not act on), or unavailable (the store did not take it in time: answered 503,
 * which Guilds retries).
 */
export type DeliveryOutcome =
  | 'stored'
  | 'duplicate'
  | 'wrong_token'
  /** A list's delivery whose signature or secret does not match the list's secret. */
  | 'wrong_secret'
  /** A signed list delivery more than 5 minutes from this machine's clock. */
  | 'stale_signature'
  | 'malformed'
  | 'wrong_server'
  | 'ignored'
  | 'unavailable';

/** One line of a server's delivery log: never a token or a body, only the event kind. */
export interface DeliveryRecord {
  guildId: string;
  at: number;
  /** vote, review, reply, or '?' when the body named no kind the bot knows (or could not be read). */
  event: string;
  outcome: DeliveryOutcome;
}

/** What waits and what is parked, for the metrics. */
export interface WorkCounts {
  events: number;
  votes: number;
  reviews: number;
  edits: number;
  parkedLanes: number;
  parkedPosts: number;
}

/** What a server has set with /setup (or the environment, for a single server); none of it secret. */
export interface ServerSettingsRecord {
  reviewChannelId?: string;
  voteChannelId?: string;
  auditChannelId?: string;
  reminderChannelId?: string;
  voterRoleId?: string;
  moderatorRoleIds?: string[];
  voteUrl?: string;
  /** The vote announcement as the server words it (src/announce/template.ts). */
  announceTemplate?: string;
  /** The announcement of a member's first recorded vote. */
  firstVoteTemplate?: string;
  /** `{user}` pings the voter (and nobody else); without it the mention shows but pings no one. */
  announcePing?: boolean;
  /** The "voted on every list today" line; on when not set. */
  announceEveryList?: boolean;
  /** Hours after a vote runs out in which the next vote keeps the streak going. */
  streakGraceHours?: number;
}

/** How many stored secrets one key sealed, and in how many servers: what a start checks its keys against. */
export interface SealedKeyUse {
  /** The sealing key's id (src/secrets); undefined for values not in the sealed format. */
  keyId: string | undefined;
  values: number;
  servers: number;
}

/** A key to the vote API (/setup api-key create): bound to its server, kept as the hash of the key. */
export interface ApiKeyRecord {
  guildId: string;
  /** What the admin called it, unique in the server: /setup api-key revoke names it. */
  name: string;
  /** SHA-256 of the whole key, hex. */
  keyHash: string;
  /** The key's last four characters, all that is ever shown again. */
  last4: string;
  createdAt: number;
  /** The member who made it. */
  createdBy: string;
}

/** A list besides Guilds a server takes votes from (/setup listing add, or LISTING_<SITE>_SECRET). */
export interface ListingRecord {
  guildId: string;
  /** The list's site id (src/lists). */
  site: string;
  /** Sealed, like the server's credentials: the store never holds it in plain text. */
  secret: string;
  /** How long a vote on it runs when the site does not say (ms); null: the site's default. */
  voteLengthMs: number | null;
  /** The site's API token (Top.gg's, for reading votes missed while down), sealed like the secret; null or absent: none. */
  apiToken?: string | null;
  createdAt: number;
  /** The last delivery the list made (a test included), and its last test delivery. */
  lastDeliveryAt: number | null;
  lastTestAt: number | null;
}

/**
 * What stops a server's reads of Top.gg's vote list: a token Top.gg refused (401/403), parked until
 * the token changes (`token` is a hash of it, never the token), and a 429's block.
 */
export interface TopggRecoveryState {
  parked?: { token: string; status: number; at: number };
  /** No request with this server's token before then (ms). */
  blockedUntil?: number;
}

/** When a list last delivered to a server, and last sent a test. */
export type ListingActivity = Pick<ListingRecord, 'site' | 'lastDeliveryAt' | 'lastTestAt'>;

/** A server the bot serves or served: its settings and its secrets, sealed (src/secrets). */
export interface ServerRecord {
  guildId: string;
  settings: ServerSettingsRecord;
  /** Sealed values only: the store never holds a secret in plain text. */
  sealed: { apiKey: string | null; appId: string | null; webhookToken: string | null };
  createdAt: number;
  updatedAt: number;
  /** When the bot left the server (its data goes 30 days later); null while it is in it. */
  leftAt: number | null;
}

/** How the last attempt at a forwarded delivery went, as the delivery log shows it. */
export type ForwardResult =
  | { outcome: 'delivered'; status: number }
  /** Tried again later: a timeout, a network failure, 408, 429 or 5xx. */
  | { outcome: 'retrying'; status?: number; reason?: 'timeout' | 'network' }
  /** A 3xx (never followed) or another 4xx: this delivery is given up. */
  | { outcome: 'gaveUp'; status: number }
  /**
   * Not sent, kept and tried again: a plain http URL, an address in a private, loopback, link-local
   * or metadata range, a host that does not resolve, or a secret no key opens.
   */
  | { outcome: 'refused'; reason: 'http' | 'private' | 'unresolved' | 'secret' };

/** A server's place its votes are forwarded to (issue 51). */
export interface ForwardDestinationRecord {
  guildId: string;
  id: string;
  url: string;
  /** Sealed; null for one FORWARD_URLS set (its secret is FORWARD_SECRET, read from the environment). */
  secret: string | null;
  /** The secret's last four characters: what is shown after it was shown once. */
  secretEnd: string;
  fromEnvironment: boolean;
  createdAt: number;
  lastAt: number | null;
  lastResult: ForwardResult | null;
  /** Since when every attempt failed; null while it delivers. */
  failingSince: number | null;
  /** Deliveries waiting to be sent. */
  waiting: number;
}

/** The oldest waiting delivery of one destination, due now. */
export interface DueForward {
  id: number;
  guildId: string;
  destinationId: string;
  deliveryId: string;
  body: string;
  attempts: number;
  url: string;
  secret: string | null;
  fromEnvironment: boolean;
}

/** An interaction answered over HTTP, claimed so a replay of its signed request runs nothing. */
export interface InteractionClaim {
  guildId: string;
  id: string;
  /** When its signature turns stale: the row is kept until then. */
  until: number;
}
