import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  botRoleIdFor,
  voterRoleIdFor,
  DEFAULTS,
  defaultRoles,
  guildNameFor,
  moderatorRoleIdFor,
  rolePayload,
  textChannelIdFor,
  userPayload,
  type GuildSetup,
} from './fixtures.js';
import { Gateway } from './gateway.js';
import { DEFAULT_WAIT_MS, InteractionRecord, type InteractionHandle } from './interaction-record.js';
import {
  channelMessageBucket,
  countsGlobally,
  GLOBAL_REQUESTS_PER_SECOND,
  GlobalRateLimit,
  MEMBER_ROLE_LIMIT,
  memberRoleBucket,
  RouteRateLimits,
} from './rate-limits.js';
import { IDENTIFY_WINDOW_MS, type IdentifyRecord } from './shards.js';
import { handleRest, type RestContext, type RestRequest, type RestResult } from './rest.js';
import { nextSnowflake } from './snowflake.js';
import { LoopClock } from './loop-clock.js';
import { InteractionSigner, type HttpAnswer, type Signing } from './signed-http.js';
import { Store } from './store.js';
import { OAuth2, type OAuthAnswer, type OAuthIdentity } from './oauth2.js';
import type {
  InteractionPayload,
  MemberPayload,
  Message,
  PermissionOverwrite,
  RecordedRequest,
  RoleChange,
} from './types.js';

/** An interaction sent over HTTP: the handle, and the endpoint's HTTP answer once it came. */
export type HttpInteractionHandle = InteractionHandle & { readonly answered: Promise<HttpAnswer> };

export interface DiscordStandInOptions {
  token?: string;
  /** The port on 127.0.0.1 for REST and the gateway; default 0, a free one. */
  port?: number;
  guildId?: string;
  applicationId?: string;
  /** Defaults to the application id, as for every bot made since 2016. */
  botUserId?: string;
  /** How many requests, messages and interactions are remembered (newest kept). Default 10,000. */
  maxLog?: number;
  /** Further guilds the bot is in (sent in READY and GUILD_CREATE). */
  otherGuildIds?: string[];
  /** Role id of the configured guild's "Moderator" role. */
  moderatorRoleId?: string;
  /** A first callback later than this after dispatch gets 10062 Unknown interaction. Default 3000; 0 turns it off. */
  interactionDeadlineMs?: number;
  /**
   * A stall of the stand-in's own process is kept off the bot's clock (default true). Off where a
   * test holds Date and sends from this same process: its own sending is then no stall to excuse.
   */
  excuseOwnStalls?: boolean;
  /** Discord's per-channel message limits (5 per 5 s) and member role limits (10 per s per guild), with bucket headers and 429s. Default on. */
  channelRateLimits?: boolean;
  /**
   * The member role bucket (per guild) instead of 10 per 1,000 ms: a test of the pacing scales the
   * window down (e.g. 10 per 100 ms) so hundreds of changes take seconds, not minutes.
   */
  memberRoleLimit?: { limit: number; windowMs: number };
  /** The shard count GET /gateway/bot recommends (`shards`). Default 1. */
  recommendedShards?: number;
  /** `session_start_limit.max_concurrency` from GET /gateway/bot. Default 1. */
  maxConcurrency?: number;
  /** How far apart identifies in one max_concurrency bucket must be to not count as too soon. Default 5,000 (Discord's). */
  identifyWindowMs?: number;
  /** The bot's global REST limit per second (429 `global: true` past it); 0 turns it off. Default 50, Discord's. */
  globalRequestsPerSecond?: number;
}

export interface DiscordStandIn {
  /** `http://127.0.0.1:PORT/api`; discord.js appends `/v10`. */
  readonly apiUrl: string;
  /** `ws://127.0.0.1:PORT`, what GET /gateway/bot answers. */
  readonly gatewayUrl: string;
  readonly token: string;
  readonly applicationId: string;
  readonly guildId: string;
  readonly botUserId: string;
  /** The configured guild's text channel, where interactions come from by default. */
  readonly channelId: string;
  readonly moderatorRoleId: string;
  /** The managed role Discord gives the bot in the configured guild. */
  readonly botRoleId: string;
  /** A plain "Voter" role below the bot's role in the configured guild. */
  readonly voterRoleId: string;
  /** Member roles Discord gave or took (PUT/DELETE …/members/{u}/roles/{r}), oldest first. */
  readonly roleChanges: readonly RoleChange[];
  /** On: member role changes are answered 403 Missing Permissions, as when the bot lacks Manage Roles. */
  refuseRoleChanges(on: boolean): void;
  /** An admin edits a member's roles by hand in the server settings: no request of the bot's, no role change recorded. */
  setMemberRoles(userId: string, roleIds: readonly string[], guildId?: string): void;
  /** The member's roles as Discord has them now; undefined for a member Discord does not know. */
  memberRoles(userId: string, guildId?: string): string[] | undefined;
  /** On: DMs to this user are answered 403 50007 (the member closed DMs from server members). */
  closeDms(userId: string, closed?: boolean): void;
  /** Messages the bot sent the user by DM, oldest first. */
  directMessages(userId: string): Message[];
  /** Every REST request (newest maxLog kept). */
  readonly requests: RecordedRequest[];
  /** Requests answered with Discord's `{ message: '404: Not Found', code: 0 }`. */
  readonly unknownRoutes: RecordedRequest[];
  /** IDENTIFYs answered with READY so far. */
  readonly gatewaySessions: number;
  /** A client's gateway socket is open now (interactions sent meanwhile are queued until one is). */
  readonly connected: boolean;
  /** Every IDENTIFY with its shard, time and max_concurrency bucket, oldest first. */
  readonly identifies: readonly IdentifyRecord[];
  /** IDENTIFYs sooner than the identify window after the one before in their bucket: 0 when start-up honours max_concurrency. */
  readonly identifyPacingViolations: number;
  /** IDENTIFYs for a shard whose earlier session was still connected: two clients running one shard. */
  readonly overlappingIdentifies: number;
  /** Shard ids with a connected session now. */
  connectedShards(): number[];
  /** Resolves once each of these shard ids has a connected session. */
  waitForShards(shardIds: readonly number[], timeoutMs?: number): Promise<void>;
  /** Requests answered 429 `global: true`: the bot (all its processes) went past its global limit. */
  readonly globalRateLimited: number;
  /** Bot-token requests counted in each second (unix second → count): the global budget as spent. */
  readonly botRequestsPerSecond: ReadonlyMap<number, number>;
  readonly resumes: number;
  /** Resolves once a client identified and got READY and GUILD_CREATE (immediately if one has). */
  waitForReady(timeoutMs?: number): Promise<void>;
  /** Resolves once the client has resumed `count` times in all (default: one more than now). */
  waitForResume(count?: number, timeoutMs?: number): Promise<void>;
  /** Dispatches INTERACTION_CREATE on the live gateway session (queued while the client is away). */
  sendInteraction(payload: InteractionPayload): InteractionHandle;
  /** The application's public key (hex) the stand-in signs HTTP interactions with: the bot's DISCORD_PUBLIC_KEY. */
  readonly publicKeyHex: string;
  /**
   * POSTs the interaction to an Interactions Endpoint URL, signed as Discord signs it, and takes the
   * HTTP response as its callback: the handle reads the answer as sendInteraction's does.
   */
  sendInteractionHttp(url: string, payload: InteractionPayload, signing?: Signing): HttpInteractionHandle;
  /** POSTs any body to the endpoint, signed as `signing` says (a PING is `{"type":1}`): the 401 and PONG checks. */
  postSigned(url: string, body: string, signing?: Signing): Promise<HttpAnswer>;
  /** Sends the last signed request again, byte for byte (signature and timestamp as they were), to `url`. */
  replaySigned(url: string): Promise<HttpAnswer>;
  /** Closes a shard's socket (default shard 0): a code (e.g. 4000) sends a close frame; none (or 1006) just drops it. */
  dropGateway(closeCode?: number, shard?: number): void;
  /** Sends op 7 RECONNECT on a shard's live session (default shard 0). */
  requestReconnect(shard?: number): void;
  /** The bot leaves a guild (or is kicked): GUILD_DELETE without `unavailable`, and the guild is gone from READY. */
  removeGuild(guildId: string): void;
  /** Members the guild has, whom the bot can look up by id (op 8) without them using the bot first. */
  addMembers(members: readonly MemberPayload[], guildId?: string): void;
  /** REQUEST_GUILD_MEMBERS received so far; `pauseMemberRequests(true)` leaves new ones unanswered. */
  readonly memberRequests: number;
  pauseMemberRequests(paused: boolean): void;
  /** Answers each op 8 this long after it came (0: at once). */
  delayMemberRequests(ms: number): void;
  /** The number of user ids in each op 8 so far. */
  readonly memberRequestSizes: readonly number[];
  /** Op 8s answered so far: a delayed answer (delayMemberRequests) counts once its chunk is sent. */
  readonly memberRequestsAnswered: number;
  /** Gateway sends past Discord's 120 per 60 s on a connection (each closed it with 4008). */
  readonly gatewaySendsOverLimit: number;
  /** Holds each member role PUT/DELETE this long before it is handled (0: at once). */
  delayRoleChanges(ms: number): void;
  /** An admin creates a role (default: position 1, below the bot's role); a connected client gets GUILD_ROLE_CREATE. Returns its id. */
  addRole(
    name: string,
    options?: { position?: number; managed?: boolean; guildId?: string; permissions?: bigint },
  ): string;
  /** An admin deletes a role: gone from the guild and from every member; a connected client gets GUILD_ROLE_DELETE. */
  deleteRole(roleId: string, guildId?: string): void;
  /** Makes GET /gateway/bot answer with this status (401 → login() rejects); null restores normal. */
  setGatewayBotStatus(status: number | null): void;
  /** Messages the bot posted in a channel (POST /channels/{id}/messages), current state, oldest first. */
  channelMessages(channelId: string): Message[];
  /**
   * Sets a channel's permission overwrites (default: the configured guild's text channel), as an
   * admin would in its settings; `{ deny: Permission.SendMessages, role: discord.botRoleId }`
   * takes Send Messages from the bot there. Bits are bigints; an empty list clears them. A connected
   * client gets CHANNEL_UPDATE.
   */
  setChannelOverwrites(
    overwrites: ReadonlyArray<{ role?: string; member?: string; allow?: bigint; deny?: bigint }>,
    channelId?: string,
  ): void;
  /** Replaces the guild's registered commands as stored by Discord (ids added when missing): commands gone stale. */
  setRegisteredCommands(commands: ReadonlyArray<Record<string, any>>, guildId?: string): void;
  /**
   * While on, channel message creates wait unanswered (and create nothing); a request whose
   * client goes away meanwhile is dropped. 'after-create' makes the message, then holds the answer
   * (a client that goes away never learns its id). Off answers the waiting ones.
   */
  holdChannelMessages(hold: boolean | 'after-create'): void;
  /** Makes channel message creates and edits answer only after this many ms (Discord under strain); 0 restores. */
  setChannelMessageLatency(ms: number): void;
  /**
   * Makes channel message creates and edits (in one channel, or every channel without one) answer
   * with this status and create nothing: 500 as in an outage, 403 Missing Permissions, 404 Unknown
   * Channel; null restores.
   */
  failChannelMessages(status: number | null, channelId?: string): void;
  /** The next `times` interaction callbacks are answered with `status` (a 429 asks to wait 50 ms) and not taken. */
  failCallbacks(status: number, times?: number): void;
  /** Changes the interactionDeadlineMs option from now on (0 turns it off), as if the stand-in had been started with it. */
  setInteractionDeadline(ms: number): void;
  /** The next `times` interaction callbacks are taken, but the connection drops halfway through the answer. */
  breakCallbackAnswers(times?: number): void;
  /** Channel message creates waiting on the hold now. */
  readonly heldRequests: number;
  /** Requests answered 429 so far. */
  readonly rateLimitedRequests: number;
  /** Commands from the last bulk overwrite of the guild (default: the configured guild) with their ids. */
  registeredCommands(guildId?: string): Array<Record<string, any>>;
  /** Discord's consent page (`http://127.0.0.1:PORT/oauth2/authorize`): DISCORD_OAUTH_AUTHORIZE_URL in tests. */
  readonly oauthAuthorizeUrl: string;
  /** The application's OAuth2 secret the token exchange takes: DISCORD_CLIENT_SECRET in tests. */
  readonly clientSecret: string;
  /**
   * Who the consent page signs in from now on: the user, their language and GET /users/@me/guilds
   * (permissions as bits). Default: the configured guild's owner, with every permission there.
   */
  oauthAs(userId: string, options?: Omit<OAuthIdentity, 'userId'>): void;
  /** Codes traded at POST /oauth2/token so far, refused ones included. */
  readonly oauthTrades: ReadonlyArray<{ code: string; ok: boolean }>;
  /** Waits until a condition holds: re-checked on every change the stand-in sees and every 5 ms. */
  /** `what` names the state in the timeout's error; a function is read at the timeout, to say what is missing. */
  waitUntil(condition: () => boolean, timeoutMs?: number, what?: string | (() => string)): Promise<void>;
  close(): Promise<void>;
}

const now = (): number => performance.timeOrigin + performance.now();

/** What Discord answers when it refuses or fails a channel message. */
/** A 429 of a failed callback: wait 50 ms (Discord's header in seconds, its body too). */
const CALLBACK_RETRY_HEADERS = { 'retry-after': '0.05' };

function failureBody(status: number): { message: string; code: number; retry_after?: number; global?: boolean } {
  if (status === 429) return { message: 'You are being rate limited.', code: 0, retry_after: 0.05, global: false };
  if (status === 403) return { message: 'Missing Permissions', code: 50013 };
  if (status === 404) return { message: 'Unknown Channel', code: 10003 };
  return { message: `${status}: Discord failed`, code: 0 };
}

async function readBody(req: IncomingMessage): Promise<{ body: any; contentType: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return parseBody(Buffer.concat(chunks), req.headers['content-type'] ?? '');
}

/** A request's or an HTTP interaction answer's body: JSON, or a message with files as Discord reads it. */
async function parseBody(raw: Buffer, contentType: string): Promise<{ body: any; contentType: string }> {
  if (raw.length === 0) return { body: undefined, contentType };
  if (contentType.startsWith('application/json')) {
    try {
      return { body: JSON.parse(raw.toString('utf8')), contentType };
    } catch {
      return { body: raw.toString('utf8'), contentType };
    }
  }
  if (contentType.startsWith('multipart/form-data')) {
    // Messages with files: the JSON part is `payload_json`, files are `files[n]`.
    const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    const json = form.get('payload_json');
    const body = typeof json === 'string' ? JSON.parse(json) : {};
    // The bytes ride along so tests can read what the bot attached (store.ts keeps them off the JSON).
    const files = new Map<string, { filename: string; size: number; bytes: Buffer }>();
    for (const [key, value] of form.entries()) {
      if (key === 'payload_json' || typeof value === 'string') continue;
      const id = /^files\[(\w+)\]$/.exec(key)?.[1] ?? String(files.size);
      files.set(id, { filename: value.name, size: value.size, bytes: Buffer.from(await value.arrayBuffer()) });
    }
    // An interaction callback (reply with files) holds the message under `data`; edits and follow-ups are the message.
    const target = typeof body.type === 'number' && body.data && typeof body.data === 'object' ? body.data : body;
    if (files.size > 0 && !Array.isArray(target.attachments))
      target.attachments = [...files.entries()].map(([id, file]) => ({ id, ...file }));
    else if (Array.isArray(target.attachments)) {
      const inOrder = [...files.values()];
      target.attachments = target.attachments.map((a: Record<string, unknown>, i: number) => {
        const file = files.get(String(a.id)) ?? inOrder[i];
        // Discord names the file after its part when the entry gives no filename.
        return { size: file?.size ?? 0, ...(file ? { filename: file.filename, bytes: file.bytes } : {}), ...a };
      });
    }
    return { body, contentType };
  }
  return { body: raw.toString('utf8'), contentType };
}

class StandIn implements DiscordStandIn {
  readonly apiUrl: string;
  readonly gatewayUrl: string;
  readonly channelId: string;
  private gatewayBotStatus: number | null = null;
  private hold: { on: boolean | 'after-create'; waiting: Set<() => void>; releasedAt: number } = {
    on: false,
    waiting: new Set(),
    releasedAt: 0,
  };
  heldRequests = 0;
  private channelMessageLatencyMs = 0;
  private roleChangeLatencyMs = 0;
  private readonly channelMessageFailures = new Map<string, number>();
  private callbackFailures = { status: 0, left: 0 };
  private readonly signer = new InteractionSigner();
  private brokenCallbackAnswers = 0;
  rateLimitedRequests = 0;
  private readonly oauth: OAuth2;

  constructor(
    private readonly server: Server,
    private readonly store: Store,
    private readonly gateway: Gateway,
    port: number,
    readonly moderatorRoleId: string,
    private readonly rateLimits: RouteRateLimits | undefined,
    private readonly roleRateLimits: RouteRateLimits | undefined,
    private readonly globalLimit: GlobalRateLimit | undefined,
    private readonly gatewayBot: { shards: number; maxConcurrency: number },
    private readonly loopClock: LoopClock | undefined,
  ) {
    this.apiUrl = `http://127.0.0.1:${port}/api`;
    this.gatewayUrl = `ws://127.0.0.1:${port}`;
    this.channelId = textChannelIdFor(store.config.guildId);
    this.oauth = new OAuth2(store.config.applicationId, DEFAULTS.clientSecret, store.config.guildId);
  }

  get oauthAuthorizeUrl(): string {
    return this.apiUrl.replace(/\/api$/, '/oauth2/authorize');
  }
  get clientSecret(): string {
    return this.oauth.clientSecret;
  }
  get oauthTrades(): ReadonlyArray<{ code: string; ok: boolean }> {
    return this.oauth.trades;
  }
  oauthAs(userId: string, options: Omit<OAuthIdentity, 'userId'> = {}): void {
    this.oauth.signInAs({ ...options, userId });
  }

  /** The consent page, the token exchange and what a Bearer token reads; undefined for the bot's own routes. */
  private oauthAnswer(
    method: string,
    url: URL,
    path: string,
    body: unknown,
    auth: string | undefined,
  ): OAuthAnswer | undefined {
    if (method === 'GET' && url.pathname === '/oauth2/authorize') return this.oauth.authorize(url.searchParams);
    if (method === 'POST' && path === '/oauth2/token')
      return this.oauth.token(new URLSearchParams(typeof body === 'string' ? body : ''), auth);
    if (auth?.startsWith('Bearer ') && path.startsWith('/users/@me')) return this.oauth.bearer(path, auth);
    return undefined;
  }

  get token(): string {
    return this.store.config.token;
  }
  get applicationId(): string {
    return this.store.config.applicationId;
  }
  get guildId(): string {
    return this.store.config.guildId;
  }
  get botUserId(): string {
    return this.store.config.botUser.id;
  }
  get voterRoleId(): string {
    return voterRoleIdFor(this.store.config.guildId);
  }
  get roleChanges(): readonly RoleChange[] {
    return this.store.roleChanges;
  }
  setMemberRoles(userId: string, roleIds: readonly string[], guildId = this.guildId): void {
    const key = `${guildId}:${userId}`;
    const known = this.store.members.get(key);
    if (!known) throw new Error(`no member ${userId} in ${guildId}: add it with addMembers first`);
    this.store.members.set(key, { ...known, roles: [...roleIds] });
  }
  memberRoles(userId: string, guildId = this.guildId): string[] | undefined {
    return this.store.member(guildId, userId)?.roles;
  }
  closeDms(userId: string, closed = true): void {
    if (closed) this.store.closedDms.add(userId);
    else this.store.closedDms.delete(userId);
  }
  directMessages(userId: string): Message[] {
    const channelId = this.store.dmChannels.get(userId);
    return channelId === undefined ? [] : this.store.channelMessages(channelId);
  }
  refuseRoleChanges(on: boolean): void {
    this.store.refuseRoleChanges = on;
  }
  get requests(): RecordedRequest[] {
    return this.store.requests;
  }
  get unknownRoutes(): RecordedRequest[] {
    return this.store.unknownRoutes;
  }
  get gatewaySessions(): number {
    return this.gateway.identifies;
  }
  get resumes(): number {
    return this.gateway.resumes;
  }
  get connected(): boolean {
    return this.gateway.ready;
  }
  get identifies(): readonly IdentifyRecord[] {
    return this.gateway.pacing.records;
  }
  get identifyPacingViolations(): number {
    return this.gateway.pacing.violations;
  }
  get overlappingIdentifies(): number {
    return this.gateway.overlappingIdentifies;
  }
  connectedShards(): number[] {
    return this.gateway.connectedShards();
  }
  waitForShards(shardIds: readonly number[], timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    return this.gateway.changed.wait(
      () => shardIds.every((shard) => this.gateway.connectedShards().includes(shard)),
      timeoutMs,
      () => `connected shards: [${this.gateway.connectedShards().join(', ')}], waiting for [${shardIds.join(', ')}]`,
    );
  }
  get globalRateLimited(): number {
    return this.globalLimit?.refused ?? 0;
  }
  get botRequestsPerSecond(): ReadonlyMap<number, number> {
    return this.globalLimit?.perSecond ?? new Map();
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = now();
    // Read before any await: how long before this read the request may have arrived.
    const stalledMs = this.loopClock?.stalledFor() ?? 0;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    let body: unknown;
    try {
      ({ body } = await readBody(req));
    } catch {
      body = undefined;
    }
    const match = /^\/api\/v\d+(\/.*)?$/.exec(url.pathname);
    const rest = match?.[1] ?? '';
    const segments = rest
      .split('/')
      .filter(Boolean)
      .map((segment) => {
        try {
          return decodeURIComponent(segment);
        } catch {
          return segment;
        }
      });
    const path = `/${segments.join('/')}`;
    const request: RestRequest = {
      method,
      segments,
      path,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
      at,
      stalledMs,
    };
    const context: RestContext = {
      store: this.store,
      gatewayUrl: this.gatewayUrl,
      gatewayBotStatus: this.gatewayBotStatus,
      gatewayBot: this.gatewayBot,
    };
    const authorization = typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined;
    const oauth = this.oauthAnswer(method, url, match ? path : url.pathname, body, authorization);
    if (oauth) {
      this.store.record(
        { method, path: url.pathname, query: request.query, headers: req.headers, body, at, status: oauth.status },
        false,
      );
      if (oauth.location !== undefined) res.writeHead(oauth.status, { location: oauth.location }).end();
      else res.writeHead(oauth.status, { 'content-type': 'application/json' }).end(JSON.stringify(oauth.body));
      return;
    }
    const bucket = match ? channelMessageBucket(method, segments) : undefined;
    // Held posts reach "Discord" together when the hold is lifted: each is counted at that moment, and
    // a stall of this process before the hold does not move it (the global limit reads `arrivedAt`).
    let arrivedAt: number | undefined;
    if (bucket?.startsWith('POST') && this.hold.on === true) {
      if (!(await this.waitForRelease(req))) return;
      arrivedAt = this.hold.releasedAt;
    }
    if (bucket && this.channelMessageLatencyMs > 0)
      await new Promise((resolve) => setTimeout(resolve, this.channelMessageLatencyMs));
    const roleBucket = match ? memberRoleBucket(method, segments) : undefined;
    if (roleBucket && this.roleChangeLatencyMs > 0)
      await new Promise((resolve) => setTimeout(resolve, this.roleChangeLatencyMs));
    const global =
      match && countsGlobally(authorization, segments)
        ? this.globalLimit?.take(arrivedAt ?? Date.now(), arrivedAt === undefined ? stalledMs : 0)
        : undefined;
    const limit =
      global && !global.allowed
        ? global
        : bucket !== undefined
          ? this.rateLimits?.take(bucket, Date.now())
          : roleBucket !== undefined
            ? this.roleRateLimits?.take(roleBucket, Date.now())
            : undefined;
    if (limit && !limit.allowed) this.rateLimitedRequests += 1;
    const callbackFails = Boolean(match) && segments[0] === 'interactions' && this.callbackFailures.left > 0;
    if (callbackFails) this.callbackFailures.left -= 1;
    const failing = callbackFails
      ? this.callbackFailures.status
      : bucket && (this.channelMessageFailures.get(segments[1]!) ?? this.channelMessageFailures.get('*'));
    const result: RestResult & { headers?: Record<string, string> } = !match
      ? { status: 404, body: { message: '404: Not Found', code: 0 }, unknown: true }
      : failing
        ? {
            status: failing,
            body: failureBody(failing),
            ...(failing === 429 ? { headers: CALLBACK_RETRY_HEADERS } : {}),
          }
        : limit && !limit.allowed
          ? { status: 429, body: limit.body }
          : handleRest(context, request);
    const headers = result.headers ?? limit?.headers ?? {};
    if (bucket?.startsWith('POST') && this.hold.on === 'after-create' && !(await this.waitForRelease(req))) return;
    this.store.record(
      {
        method,
        path: match ? path : url.pathname,
        query: request.query,
        headers: req.headers,
        body,
        at,
        status: result.status,
      },
      result.unknown === true,
    );
    if (match && segments[0] === 'interactions' && result.status < 300 && this.brokenCallbackAnswers > 0) {
      this.brokenCallbackAnswers -= 1;
      // A 200 with a body (as `with_response` answers): a 204's length would be ignored.
      res.writeHead(200, { ...headers, 'content-length': 64 }).write('{', () => req.socket.destroy());
    } else if (result.body === undefined) {
      res.writeHead(result.status, headers).end();
    } else {
      const json = JSON.stringify(result.body);
      res
        .writeHead(result.status, {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(json),
        })
        .end(json);
    }
  }

  /** True once the hold is lifted; false when the client gave up first (nothing is created). */
  private waitForRelease(req: IncomingMessage): Promise<boolean> {
    this.heldRequests += 1;
    this.store.changed.notify();
    return new Promise<boolean>((resolve) => {
      const release = () => finish(true);
      const gone = () => finish(false);
      const finish = (released: boolean) => {
        this.hold.waiting.delete(release);
        req.socket.off('close', gone);
        this.heldRequests -= 1;
        this.store.changed.notify();
        resolve(released);
      };
      this.hold.waiting.add(release);
      req.socket.once('close', gone);
    });
  }

  setInteractionDeadline(ms: number): void {
    this.store.config.interactionDeadlineMs = ms === 0 ? Number.POSITIVE_INFINITY : ms;
  }

  failCallbacks(status: number, times = 1): void {
    this.callbackFailures = { status, left: times };
  }

  breakCallbackAnswers(times = 1): void {
    this.brokenCallbackAnswers = times;
  }

  failChannelMessages(status: number | null, channelId = '*'): void {
    if (status === null) this.channelMessageFailures.delete(channelId);
    else this.channelMessageFailures.set(channelId, status);
  }

  setChannelMessageLatency(ms: number): void {
    this.channelMessageLatencyMs = ms;
  }

  holdChannelMessages(hold: boolean | 'after-create'): void {
    this.hold.on = hold;
    if (hold) return;
    this.hold.releasedAt = Date.now();
    for (const release of [...this.hold.waiting]) release();
  }

  waitForReady(timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    return this.gateway.changed.wait(
      () => this.gateway.identifies > 0 && this.gateway.ready,
      timeoutMs,
      () => 'no client has identified on the gateway',
    );
  }

  waitForResume(count = this.gateway.resumes + 1, timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    return this.gateway.changed.wait(
      () => this.gateway.resumes >= count,
      timeoutMs,
      () => `resumes: ${this.gateway.resumes}, waiting for ${count}`,
    );
  }

  waitUntil(
    condition: () => boolean,
    timeoutMs = DEFAULT_WAIT_MS,
    what: string | (() => string) = 'condition',
  ): Promise<void> {
    return this.store.changed.wait(
      condition,
      timeoutMs,
      () => `waiting for ${typeof what === 'string' ? what : what()}`,
      5,
    );
  }

  addMembers(members: readonly MemberPayload[], guildId = this.guildId): void {
    for (const member of members) this.store.rememberMember(guildId, member);
  }

  get memberRequests(): number {
    return this.gateway.memberRequests;
  }

  pauseMemberRequests(paused: boolean): void {
    this.gateway.memberRequestsPaused = paused;
  }

  delayMemberRequests(ms: number): void {
    this.gateway.memberRequestDelayMs = ms;
  }

  get memberRequestSizes(): readonly number[] {
    return this.gateway.memberRequestSizes;
  }

  get memberRequestsAnswered(): number {
    return this.gateway.memberRequestsAnswered;
  }

  get gatewaySendsOverLimit(): number {
    return this.gateway.sendsOverLimit;
  }

  delayRoleChanges(ms: number): void {
    this.roleChangeLatencyMs = ms;
  }

  addRole(
    name: string,
    options: { position?: number; managed?: boolean; guildId?: string; permissions?: bigint } = {},
  ): string {
    const guildId = options.guildId ?? this.guildId;
    const guild = this.store.guild(guildId);
    if (!guild) throw new Error(`the bot is not in guild ${guildId}`);
    const role = rolePayload(nextSnowflake(), name, options.position ?? 1, options.permissions ?? 0n, {
      managed: options.managed ?? false,
    });
    guild.roles.push(role);
    this.gateway.dispatch('GUILD_ROLE_CREATE', { guild_id: guildId, role });
    return role.id;
  }

  deleteRole(roleId: string, guildId = this.guildId): void {
    const guild = this.store.guild(guildId);
    const at = guild?.roles.findIndex((role) => role.id === roleId) ?? -1;
    if (!guild || at < 0) throw new Error(`no role ${roleId} in ${guildId}`);
    guild.roles.splice(at, 1);
    for (const [key, known] of this.store.members)
      if (key.startsWith(`${guildId}:`) && known.roles.includes(roleId))
        this.store.members.set(key, { ...known, roles: known.roles.filter((id) => id !== roleId) });
    this.gateway.dispatch('GUILD_ROLE_DELETE', { guild_id: guildId, role_id: roleId });
  }

  sendInteraction(payload: InteractionPayload): InteractionHandle {
    const record = this.prepareInteraction(payload);
    this.gateway.dispatch('INTERACTION_CREATE', payload, (at) => {
      record.sentAt = at;
      record.changed();
    });
    return record;
  }

  get publicKeyHex(): string {
    return this.signer.publicKeyHex;
  }

  postSigned(url: string, body: string, signing: Signing = 'valid'): Promise<HttpAnswer> {
    return this.signer.post(url, body, signing);
  }

  replaySigned(url: string): Promise<HttpAnswer> {
    return this.signer.replay(url);
  }

  sendInteractionHttp(url: string, payload: InteractionPayload, signing: Signing = 'valid'): HttpInteractionHandle {
    const record = this.prepareInteraction(payload);
    record.sentAt = now();
    const answered = this.signer.post(url, JSON.stringify(payload), signing).then(async (answer) => {
      if (answer.status === 200) {
        // The response is the callback Discord would otherwise have been POSTed: recorded the same way.
        const { body } = await parseBody(answer.body, answer.contentType);
        const segments = ['interactions', record.id, record.token, 'callback'];
        const context: RestContext = {
          store: this.store,
          gatewayUrl: this.gatewayUrl,
          gatewayBotStatus: this.gatewayBotStatus,
          gatewayBot: this.gatewayBot,
        };
        handleRest(context, {
          method: 'POST',
          segments,
          path: `/${segments.join('/')}`,
          query: {},
          headers: {},
          body,
          at: now(),
        });
      }
      record.changed();
      return answer;
    });
    return Object.assign(record, { answered });
  }

  private prepareInteraction(payload: InteractionPayload): InteractionRecord {
    this.store.interactionPayloadFixups(payload);
    const record = new InteractionRecord(payload, (id) => this.store.messages.get(id));
    this.store.registerInteraction(record);
    if (payload.message) this.store.adoptMessage(payload.message);
    const guildId = payload.guild_id;
    if (guildId && payload.member) {
      const { member, created } = this.store.reconcileMember(guildId, payload.member);
      payload.member = member;
      this.store.rememberMember(guildId, member);
      for (const role of created) this.gateway.dispatch('GUILD_ROLE_CREATE', { guild_id: guildId, role });
    }
    // A role option resolves to the guild's role as it stands (discord.js caches what it is sent).
    const resolvedRoles = (payload.data as { resolved?: { roles?: Record<string, unknown> } } | undefined)?.resolved
      ?.roles;
    const guildRoles = guildId ? this.store.guild(guildId)?.roles : undefined;
    if (resolvedRoles && guildRoles)
      for (const id of Object.keys(resolvedRoles)) {
        const known = guildRoles.find((role) => role.id === id);
        if (known) resolvedRoles[id] = known;
      }
    return record;
  }

  dropGateway(closeCode?: number, shard?: number): void {
    this.gateway.drop(closeCode, shard);
  }

  requestReconnect(shard?: number): void {
    this.gateway.requestReconnect(shard);
  }

  removeGuild(guildId: string): void {
    const at = this.store.config.guilds.findIndex((guild) => guild.id === guildId);
    if (at < 0) throw new Error(`the bot is not in guild ${guildId}`);
    this.store.config.guilds.splice(at, 1);
    this.gateway.dispatch('GUILD_DELETE', { id: guildId });
    this.store.changed.notify();
  }

  setGatewayBotStatus(status: number | null): void {
    this.gatewayBotStatus = status;
  }

  channelMessages(channelId: string): Message[] {
    return this.store.channelMessages(channelId);
  }

  get botRoleId(): string {
    return botRoleIdFor(this.guildId);
  }

  setChannelOverwrites(
    overwrites: ReadonlyArray<{ role?: string; member?: string; allow?: bigint; deny?: bigint }>,
    channelId = this.channelId,
  ): void {
    const payloads = overwrites.map((o): PermissionOverwrite => ({
      id: o.member ?? o.role ?? this.guildId,
      type: o.member === undefined ? 0 : 1,
      allow: (o.allow ?? 0n).toString(),
      deny: (o.deny ?? 0n).toString(),
    }));
    this.store.channelOverwrites.set(channelId, payloads);
    // As Discord tells a connected bot when an admin edits a channel.
    const channel = this.store.channel(channelId);
    if (channel) this.gateway.dispatch('CHANNEL_UPDATE', channel);
    this.store.changed.notify();
  }

  setRegisteredCommands(commands: ReadonlyArray<Record<string, any>>, guildId = this.guildId): void {
    this.store.commands.set(
      guildId,
      commands.map((command) => ({ id: nextSnowflake(), application_id: this.applicationId, ...command })),
    );
    this.store.changed.notify();
  }

  registeredCommands(guildId = this.guildId): Array<Record<string, any>> {
    return this.store.commands.get(guildId) ?? [];
  }

  async close(): Promise<void> {
    for (const record of this.store.interactionsById.values()) record.cancel('The Discord stand-in closed');
    this.store.changed.cancelAll('The Discord stand-in closed');
    await this.gateway.close();
    this.loopClock?.stop();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** Starts a local Discord (REST + gateway) on 127.0.0.1, on a free port unless one is named. */
export async function startDiscordStandIn(options: DiscordStandInOptions = {}): Promise<DiscordStandIn> {
  const applicationId = options.applicationId ?? DEFAULTS.applicationId;
  const botUserId = options.botUserId ?? applicationId;
  const guildId = options.guildId ?? DEFAULTS.guildId;
  const moderatorRoleId = options.moderatorRoleId ?? DEFAULTS.moderatorRoleId;
  const botUser = userPayload(botUserId, DEFAULTS.botUsername, true);
  const guilds: GuildSetup[] = [guildId, ...(options.otherGuildIds ?? [])].map((id, i) => ({
    id,
    name: guildNameFor(i),
    botUser,
    roles: defaultRoles(id, botUserId, i === 0 ? moderatorRoleId : moderatorRoleIdFor(id)),
  }));
  const store = new Store({
    token: options.token ?? DEFAULTS.token,
    applicationId,
    botUser,
    guildId,
    guilds,
    maxLog: Math.max(1, options.maxLog ?? 10_000),
    interactionDeadlineMs:
      options.interactionDeadlineMs === 0 ? Number.POSITIVE_INFINITY : (options.interactionDeadlineMs ?? 3000),
    joinedAt: new Date(Date.now() - 86_400_000).toISOString().replace('Z', '000+00:00'),
  });

  let standIn: StandIn | undefined;
  const server = createServer((req, res) => {
    standIn!.handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: '500: Internal Server Error', code: 0 }));
    });
  });
  server.keepAliveTimeout = 60_000;
  let port = 0;
  const maxConcurrency = Math.max(1, options.maxConcurrency ?? 1);
  const gateway = new Gateway(server, store, () => `ws://127.0.0.1:${port}`, {
    maxConcurrency: () => maxConcurrency,
    identifyWindowMs: options.identifyWindowMs ?? IDENTIFY_WINDOW_MS,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const rateLimits = options.channelRateLimits === false ? undefined : new RouteRateLimits();
  const roleRateLimits =
    options.channelRateLimits === false ? undefined : new RouteRateLimits(options.memberRoleLimit ?? MEMBER_ROLE_LIMIT);
  const globalPerSecond = options.globalRequestsPerSecond ?? GLOBAL_REQUESTS_PER_SECOND;
  const globalLimit = globalPerSecond > 0 ? new GlobalRateLimit(globalPerSecond) : undefined;
  standIn = new StandIn(
    server,
    store,
    gateway,
    port,
    moderatorRoleId,
    rateLimits,
    roleRateLimits,
    globalLimit,
    { shards: Math.max(1, options.recommendedShards ?? 1), maxConcurrency },
    // Its own stalls are not charged to the bot, in the global limit or an interaction's 3 s.
    options.excuseOwnStalls === false ? undefined : new LoopClock(),
  );
  return standIn;
}
