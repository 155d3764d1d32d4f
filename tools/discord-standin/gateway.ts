import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { IdentifyPacing, shardOf } from './shards.js';
import { Signal } from './signal.js';
import type { Store } from './store.js';

const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;
const HEARTBEAT_INTERVAL_MS = 41_250;
/** GATEWAY_GUILD_MEMBERS_LIMITED | APPLICATION_COMMAND_BADGE, what a typical verified-less bot has. */
const APPLICATION_FLAGS = 8_421_376;

interface Pending {
  t: string;
  d: unknown;
  onSent?: (at: number) => void;
}

export interface GatewayOptions {
  /** `session_start_limit.max_concurrency`: identify buckets are `shard_id % max_concurrency`. */
  maxConcurrency: () => number;
  /** How far apart identifies in one bucket must be (Discord: 5 s). */
  identifyWindowMs: number;
}

interface Session {
  id: string;
  seq: number;
  socket: WebSocket | null;
  shard: [number, number];
  /** Events dispatched while the client was away, replayed on RESUME as Discord does. */
  pending: Pending[];
}

const GATEWAY_SEND_LIMIT = { limit: 120, windowMs: 60_000 };

const now = (): number => performance.timeOrigin + performance.now();

/** The gateway side: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME, dispatches. */
export class Gateway {
  private readonly wss: WebSocketServer;
  private readonly sessions = new Map<string, Session>();
  /** The newest session of each shard id. */
  private readonly live = new Map<number, Session>();
  /** The shard count of the newest identify: what a guild's shard is computed from. */
  private shardCount = 1;
  /** Dispatches asked for before the shard they belong to identified. */
  private readonly early: Pending[] = [];
  identifies = 0;
  readonly pacing: IdentifyPacing;
  /** IDENTIFYs for a shard whose earlier session was still connected: two clients running one shard. */
  overlappingIdentifies = 0;
  resumes = 0;
  /** REQUEST_GUILD_MEMBERS (op 8) received; while paused they go unanswered, as on a slow gateway. */
  memberRequests = 0;
  memberRequestsPaused = false;
  /** How long an op 8 waits before its answer, as on a busy gateway. */
  memberRequestDelayMs = 0;
  /** Op 8s answered with their GUILD_MEMBERS_CHUNK so far (a delayed answer counts once it is sent). */
  memberRequestsAnswered = 0;
  /** The number of user ids in each op 8, oldest first. */
  readonly memberRequestSizes: number[] = [];
  /** Sends past Discord's 120 per 60 s on one connection; each closes it with 4008, as Discord does. */
  sendsOverLimit = 0;
  readonly changed = new Signal();

  constructor(
    server: Server,
    private readonly store: Store,
    private readonly url: () => string,
    options: GatewayOptions,
  ) {
    this.pacing = new IdentifyPacing(options.maxConcurrency, options.identifyWindowMs);
    this.wss = new WebSocketServer({ server });
    this.wss.on('connection', (socket) => this.accept(socket));
  }

  /** Every shard of the newest identify's count has a connected session. */
  get ready(): boolean {
    for (let shard = 0; shard < this.shardCount; shard++) if (this.live.get(shard)?.socket == null) return false;
    return true;
  }

  /** Shard ids with a connected session now. */
  connectedShards(): number[] {
    return [...this.live.entries()].filter(([, session]) => session.socket != null).map(([shard]) => shard);
  }

  private accept(socket: WebSocket): void {
    let session: Session | undefined;
    const sent: number[] = [];
    socket.on('message', (raw, isBinary) => {
      if (this.overSendLimit(sent)) {
        this.sendsOverLimit += 1;
        socket.close(4008, 'Rate limited.');
        return;
      }
      if (isBinary) {
        socket.close(4002, 'Error while decoding payload.');
        return;
      }
      let payload: { op?: number; d?: any };
      try {
        payload = JSON.parse(raw.toString());
      } catch {
        socket.close(4002, 'Error while decoding payload.');
        return;
      }
      switch (payload.op) {
        case Op.Heartbeat:
          this.send(socket, { op: Op.HeartbeatAck, d: null, s: null, t: null });
          return;
        case Op.Identify:
          if (session) return void socket.close(4005, 'Already authenticated.');
          session = this.identify(socket, payload.d);
          return;
        case Op.Resume:
          if (session) return void socket.close(4005, 'Already authenticated.');
          session = this.resume(socket, payload.d);
          return;
        case Op.RequestGuildMembers:
          if (!session) return void socket.close(4003, 'Not authenticated.');
          this.memberRequests += 1;
          this.memberRequestSizes.push(Array.isArray(payload.d?.user_ids) ? payload.d.user_ids.length : 1);
          if (this.memberRequestsPaused) return;
          if (this.memberRequestDelayMs <= 0) this.answerMemberRequest(session, payload.d);
          else {
            const asked = session;
            setTimeout(() => this.answerMemberRequest(asked, payload.d), this.memberRequestDelayMs).unref();
          }
          return;
        default:
          if (!session) socket.close(4003, 'Not authenticated.');
      }
    });
    socket.on('close', () => {
      if (session?.socket === socket) session.socket = null;
      this.changed.notify();
    });
    socket.on('error', () => {});
    this.send(socket, { op: Op.Hello, d: { heartbeat_interval: HEARTBEAT_INTERVAL_MS }, s: null, t: null });
  }

  /** Discord's gateway takes 120 sends per 60 s per connection; `sent` holds this one's send times. */
  private overSendLimit(sent: number[]): boolean {
    const at = now();
    while (sent.length > 0 && sent[0]! <= at - GATEWAY_SEND_LIMIT.windowMs) sent.shift();
    sent.push(at);
    return sent.length > GATEWAY_SEND_LIMIT.limit;
  }

  private tokenMatches(token: unknown): boolean {
    return token === this.store.config.token || token === `Bot ${this.store.config.token}`;
  }

  private identify(socket: WebSocket, d: any): Session | undefined {
    if (!this.tokenMatches(d?.token)) {
      socket.close(4004, 'Authentication failed.');
      return undefined;
    }
    const shard: [number, number] = Array.isArray(d?.shard) ? [Number(d.shard[0]), Number(d.shard[1])] : [0, 1];
    if (
      !Number.isInteger(shard[0]) ||
      !Number.isInteger(shard[1]) ||
      shard[0] < 0 ||
      shard[1] < 1 ||
      shard[0] >= shard[1]
    ) {
      socket.close(4010, 'Invalid shard.');
      return undefined;
    }
    this.pacing.record(shard, now());
    const session: Session = { id: randomBytes(16).toString('hex'), seq: 0, socket, shard, pending: [] };
    if (this.live.get(shard[0])?.socket) this.overlappingIdentifies += 1;
    this.sessions.set(session.id, session);
    if (shard[1] !== this.shardCount) {
      // A new shard count (a resharded bot): sessions of the old count receive nothing more.
      this.shardCount = shard[1];
      for (const [id, old] of this.live) if (old.shard[1] !== shard[1]) this.live.delete(id);
    }
    const { config } = this.store;
    const guilds = config.guilds.filter((guild) => shardOf(guild.id, shard[1]) === shard[0]);
    this.dispatchOn(session, {
      t: 'READY',
      d: {
        v: 10,
        user: { ...config.botUser, verified: true, mfa_enabled: false, email: null },
        guilds: guilds.map((guild) => ({ id: guild.id, unavailable: true })),
        session_id: session.id,
        session_type: 'normal',
        resume_gateway_url: this.url(),
        shard: session.shard,
        application: { id: config.applicationId, flags: APPLICATION_FLAGS },
        user_settings: {},
        private_channels: [],
        presences: [],
        relationships: [],
        guild_join_requests: [],
        geo_ordered_rtc_regions: ['us-east'],
        auth: {},
        _trace: ['["stand-in-gateway",{"micros":0}]'],
      },
    });
    for (const guild of guilds) this.dispatchOn(session, { t: 'GUILD_CREATE', d: this.store.guildCreate(guild) });
    this.identifies += 1;
    this.live.set(shard[0], session);
    const mine = this.early.filter((event) => this.shardFor(event) === shard[0]);
    for (const event of mine) this.early.splice(this.early.indexOf(event), 1);
    for (const event of mine) this.dispatchOn(session, event);
    this.changed.notify();
    return session;
  }

  private resume(socket: WebSocket, d: any): Session | undefined {
    const session = typeof d?.session_id === 'string' ? this.sessions.get(d.session_id) : undefined;
    if (!session || !this.tokenMatches(d?.token) || typeof d?.seq !== 'number' || d.seq > session.seq) {
      this.send(socket, { op: Op.InvalidSession, d: false, s: null, t: null });
      return undefined;
    }
    if (session.socket && session.socket !== socket) session.socket.terminate();
    session.socket = socket;
    const missed = session.pending.splice(0);
    for (const event of missed) this.dispatchOn(session, event);
    this.dispatchOn(session, { t: 'RESUMED', d: { _trace: ['["stand-in-gateway",{"micros":0}]'] } });
    this.resumes += 1;
    if (session.shard[1] === this.shardCount) this.live.set(session.shard[0], session);
    this.changed.notify();
    return session;
  }

  /**
   * Answers op 8 for given user ids with one GUILD_MEMBERS_CHUNK: the members the stand-in knows,
   * the rest under not_found. Asking by ids needs no privileged intent; a query without ids does.
   */
  private answerMemberRequest(session: Session, d: any): void {
    const ids: string[] = Array.isArray(d?.user_ids) ? d.user_ids : typeof d?.user_ids === 'string' ? [d.user_ids] : [];
    const guildId = String(d?.guild_id);
    const members = ids.map((id) => this.store.member(guildId, id)).filter((m) => m !== undefined);
    const found = new Set(members.map((m) => m.user.id));
    this.dispatchOn(session, {
      t: 'GUILD_MEMBERS_CHUNK',
      d: {
        guild_id: guildId,
        members,
        chunk_index: 0,
        chunk_count: 1,
        not_found: ids.filter((id) => !found.has(id)),
        ...(d?.nonce === undefined ? {} : { nonce: d.nonce }),
      },
    });
    this.memberRequestsAnswered += 1;
    this.changed.notify();
  }

  private send(socket: WebSocket, payload: unknown): void {
    socket.send(JSON.stringify(payload));
  }

  private dispatchOn(session: Session, event: Pending): void {
    if (!session.socket || session.socket.readyState !== session.socket.OPEN) {
      session.pending.push(event);
      return;
    }
    session.seq += 1;
    this.send(session.socket, { op: Op.Dispatch, t: event.t, s: session.seq, d: event.d });
    event.onSent?.(now());
  }

  /**
   * The shard an event goes to: its guild's shard (`(guild_id >> 22) % count`), or shard 0 for
   * events outside any guild, as Discord sends DMs.
   */
  private shardFor(event: Pending): number {
    const d = event.d as { guild_id?: unknown; id?: unknown } | null;
    const guildId =
      typeof d?.guild_id === 'string'
        ? d.guild_id
        : /^GUILD_(CREATE|UPDATE|DELETE)$/.test(event.t) && typeof d?.id === 'string'
          ? d.id
          : undefined;
    return guildId === undefined ? 0 : shardOf(guildId, this.shardCount);
  }

  /**
   * Sends a dispatch to the session of the shard it belongs to; queued (and replayed on RESUME)
   * while that shard's client is away, or until the shard first identifies.
   */
  dispatch(t: string, d: unknown, onSent?: (at: number) => void): void {
    const event: Pending = { t, d, ...(onSent ? { onSent } : {}) };
    const session = this.live.get(this.shardFor(event));
    if (session) this.dispatchOn(session, event);
    else this.early.push(event);
  }

  /** Closes a shard's socket: no code (or 1006) drops it without a close frame, as a network failure would. */
  drop(closeCode?: number, shard = 0): void {
    const socket = this.live.get(shard)?.socket;
    if (!socket) throw new Error(`dropGateway: no client is connected on shard ${shard}`);
    if (closeCode === undefined || closeCode === 1006) socket.terminate();
    else socket.close(closeCode, 'Dropped by the stand-in');
  }

  /** Asks a shard's client to reconnect and resume (op 7), as Discord does before moving a session. */
  requestReconnect(shard = 0): void {
    const socket = this.live.get(shard)?.socket;
    if (!socket) throw new Error(`requestReconnect: no client is connected on shard ${shard}`);
    this.send(socket, { op: Op.Reconnect, d: null, s: null, t: null });
  }

  close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    this.changed.cancelAll('The Discord stand-in closed');
    return new Promise((resolve) => this.wss.close(() => resolve()));
  }
}
