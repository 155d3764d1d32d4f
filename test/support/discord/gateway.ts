import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
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
  private live: Session | undefined;
  /** Dispatches asked for before any client identified. */
  private readonly early: Pending[] = [];
  identifies = 0;
  resumes = 0;
  /** REQUEST_GUILD_MEMBERS (op 8) received; while paused they go unanswered, as on a slow gateway. */
  memberRequests = 0;
  memberRequestsPaused = false;
  /** How long an op 8 waits before its answer, as on a busy gateway. */
  memberRequestDelayMs = 0;
  /** The number of user ids in each op 8, oldest first. */
  readonly memberRequestSizes: number[] = [];
  /** Sends past Discord's 120 per 60 s on one connection; each closes it with 4008, as Discord does. */
  sendsOverLimit = 0;
  readonly changed = new Signal();

  constructor(
    server: Server,
    private readonly store: Store,
    private readonly url: () => string,
  ) {
    this.wss = new WebSocketServer({ server });
    this.wss.on('connection', (socket) => this.accept(socket));
  }

  get ready(): boolean {
    return this.live?.socket != null;
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
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      seq: 0,
      socket,
      shard: Array.isArray(d?.shard) ? [Number(d.shard[0]), Number(d.shard[1])] : [0, 1],
      pending: [],
    };
    this.sessions.set(session.id, session);
    const { config } = this.store;
    this.dispatchOn(session, {
      t: 'READY',
      d: {
        v: 10,
        user: { ...config.botUser, verified: true, mfa_enabled: false, email: null },
        guilds: config.guilds.map((guild) => ({ id: guild.id, unavailable: true })),
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
    for (const guild of config.guilds)
      this.dispatchOn(session, { t: 'GUILD_CREATE', d: this.store.guildCreate(guild) });
    this.identifies += 1;
    this.live = session;
    for (const event of this.early.splice(0)) this.dispatchOn(session, event);
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
    this.live = session;
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

  /** Sends a dispatch to the live session; queued (and replayed on RESUME) while the client is away. */
  dispatch(t: string, d: unknown, onSent?: (at: number) => void): void {
    const event: Pending = { t, d, ...(onSent ? { onSent } : {}) };
    if (this.live) this.dispatchOn(this.live, event);
    else this.early.push(event);
  }

  /** Closes the live socket: no code (or 1006) drops it without a close frame, as a network failure would. */
  drop(closeCode?: number): void {
    const socket = this.live?.socket;
    if (!socket) throw new Error('dropGateway: no client is connected');
    if (closeCode === undefined || closeCode === 1006) socket.terminate();
    else socket.close(closeCode, 'Dropped by the stand-in');
  }

  /** Asks the client to reconnect and resume (op 7), as Discord does before moving a session. */
  requestReconnect(): void {
    const socket = this.live?.socket;
    if (!socket) throw new Error('requestReconnect: no client is connected');
    this.send(socket, { op: Op.Reconnect, d: null, s: null, t: null });
  }

  close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    this.changed.cancelAll('The Discord stand-in closed');
    return new Promise((resolve) => this.wss.close(() => resolve()));
  }
}
