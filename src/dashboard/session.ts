import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { BoundedMap } from '../core/bounded-map.js';
import type { Logger } from '../core/log.js';
import type { SignOutStore } from '../store/index.js';
import { OutageLines } from '../work/outage-lines.js';

/** How long a sign-in lasts, however active the member is: then Discord is asked again. */
export const SESSION_MS = 12 * 60 * 60 * 1000;

/** Who is signed in, as the sealed cookie holds it. */
export interface Member {
  readonly id: string;
  readonly name: string;
  /** Discord's locale code (`de`, `pt-BR`…): the pages' language. */
  readonly locale: string;
  /** Servers where Discord lists them as owner, or with Manage Server or Administrator, and the bot is in. */
  readonly guildIds: readonly string[];
  readonly expiresAt: number;
  /** This sign-in: ended on logout, so a copy of the cookie kept from before opens nothing. */
  readonly sid: string;
}

/** What the sealed cookie holds besides the member: the sign-in's state, where to go after, the form token. */
type Field = 'member' | 'state' | 'returnTo' | 'csrf';

const random = (bytes = 24): string => randomBytes(bytes).toString('base64url');

/** The sealed session by field name (its own typing knows no fields). */
const fields = (request: FastifyRequest) =>
  request.session as unknown as { get(field: Field): unknown; set(field: Field, value: unknown): void };
const read = <T>(request: FastifyRequest, field: Field): T | undefined => fields(request).get(field) as T | undefined;

/** How often a process reads the sign-outs other dashboard processes recorded. */
export const SIGN_OUTS_READ_MS = 30_000;

/**
 * The periodic read of sign-outs (which also writes those a failed logout left): one warn line when
 * the store starts failing it, one when it works again, none for each retry between.
 */
export function signOutsReader(sessions: Sessions, logger: Logger): () => Promise<void> {
  const lines = new OutageLines(logger, {
    down: 'dashboard sign-outs not read; trying again',
    back: 'dashboard sign-outs are read and written again',
  });
  return async () => {
    try {
      await sessions.readSignOuts();
      lines.worked();
    } catch (error) {
      lines.failed({ err: error, unstored: sessions.unstored });
    }
  };
}

/**
 * Sign-ins, sealed in the cookie (nothing per member is kept here) but for the ones ended by logout,
 * kept in the store until they would have expired anyway (a restart or another process refuses
 * them too) and read from it into memory, so a page costs no store read.
 */
export class Sessions {
  readonly #ended = new BoundedMap<string, true>({ max: 100_000 });
  /** Sign-outs the store did not take yet, written again before every read until it does. */
  readonly #unstored = new Map<string, { userId: string; until: number }>();

  constructor(
    private readonly now: () => number,
    private readonly store?: SignOutStore,
  ) {}

  /**
   * Writes the sign-outs a failed write left here, then reads those recorded so far, this process's
   * and every other's. Throws while the store fails; what is left unwritten waits for the next call.
   */
  async readSignOuts(): Promise<void> {
    if (!this.store) return;
    const at = this.now();
    for (const [sid, { userId, until }] of this.#unstored) {
      // Past its expiry the cookie opens nothing anyway.
      if (until > at) await this.store.endSignIn(sid, userId, until, at);
      this.#unstored.delete(sid);
    }
    for (const [sid, until] of await this.store.signOuts(at)) this.#ended.set(sid, true, until - at);
  }

  /** Sign-outs the store has not taken yet (the next read writes them). */
  get unstored(): number {
    return this.#unstored.size;
  }

  member(request: FastifyRequest): Member | undefined {
    const member = read<Member>(request, 'member');
    if (!member || typeof member.sid !== 'string' || member.expiresAt <= this.now()) return undefined;
    return this.#ended.has(member.sid) ? undefined : member;
  }

  /** A fresh session for the member: nothing of the anonymous one is kept but the form token is new too. */
  begin(request: FastifyRequest, member: Omit<Member, 'expiresAt' | 'sid'>): Member {
    const signedIn: Member = { ...member, expiresAt: this.now() + SESSION_MS, sid: random() };
    request.session.regenerate();
    fields(request).set('member', signedIn);
    fields(request).set('csrf', random());
    request.session.options({ maxAge: SESSION_MS / 1000 });
    return signedIn;
  }

  /**
   * Ends the sign-in: the cookie goes, and any copy of it is refused here at once and in the store.
   * A store that fails throws; the sign-out is kept and written by the next `readSignOuts`.
   */
  async end(request: FastifyRequest): Promise<void> {
    const member = read<Member>(request, 'member');
    request.session.delete();
    if (!member?.sid) return;
    const at = this.now();
    this.#ended.set(member.sid, true, Math.max(0, member.expiresAt - at));
    if (!this.store) return;
    try {
      await this.store.endSignIn(member.sid, member.id, member.expiresAt, at);
    } catch (error) {
      this.#unstored.set(member.sid, { userId: member.id, until: member.expiresAt });
      throw error;
    }
  }

  /** The state sent to Discord's consent page, kept until the callback compares it. */
  newState(request: FastifyRequest): string {
    const state = random();
    fields(request).set('state', state);
    return state;
  }

  /** The state kept, taken once: a state that came back cannot be used again. */
  takeState(request: FastifyRequest): string | undefined {
    const state = read<string>(request, 'state');
    fields(request).set('state', undefined);
    return state;
  }

  setReturnTo(request: FastifyRequest, path: string): void {
    fields(request).set('returnTo', path);
  }

  takeReturnTo(request: FastifyRequest): string | undefined {
    const path = read<string>(request, 'returnTo');
    fields(request).set('returnTo', undefined);
    return path;
  }

  /** The session's form token, made on first use. */
  csrf(request: FastifyRequest): string {
    let token = read<string>(request, 'csrf');
    if (typeof token !== 'string') fields(request).set('csrf', (token = random()));
    return token;
  }

  csrfKept(request: FastifyRequest): string | undefined {
    return read<string>(request, 'csrf');
  }
}
