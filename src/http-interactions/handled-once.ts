import { BoundedMap } from '../core/bounded-map.js';
import type { Logger } from '../core/log.js';
import type { HandledInteractionStore, InteractionClaim } from '../store/index.js';
import { storeWithin } from '../store/within.js';

/** The claim's share of the 3 s: a healthy store answers in a millisecond or two. */
const CLAIM_STORE_MS = 500;
/** How often rows whose replay window has closed are dropped from the store. */
const FORGET_EVERY_MS = 60_000;
/** Ids a process keeps itself: a minute of a busy endpoint, each for its 5 minutes at most. */
const REMEMBERED_MAX = 100_000;

interface Waiting {
  claim: InteractionClaim;
  resolve(claimed: boolean): void;
  reject(error: unknown): void;
}

/**
 * Whether an interaction that came over HTTP is new. Its signed request is accepted for 5 minutes, so
 * a captured copy could be sent again in that time (to this process after its answer, after a
 * restart, or to another `npm run interactions` sharing the store): its id is claimed in the store
 * and kept until the window closes, and a second claim anywhere is refused. The process also keeps
 * the ids it claimed, so a store that fails or is slow still refuses repeats here; it is logged.
 */
export class HandledOnce {
  readonly #seen: BoundedMap<string, true>;
  #forgetAt = 0;
  /** Claims not yet written, and whether a write is due or under way. */
  #waiting: Waiting[] = [];
  #writing = false;

  constructor(
    private readonly store: HandledInteractionStore,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.#seen = new BoundedMap({ max: REMEMBERED_MAX, now });
  }

  /** True the first time `id` is seen anywhere while `until` (when its signature turns stale) has not passed. */
  async first(guildId: string, id: string, until: number): Promise<boolean> {
    const now = this.now();
    if (this.#seen.has(id)) return false;
    this.#seen.set(id, true, Math.max(0, until - now));
    this.#forgetOld(now);
    try {
      return await storeWithin(this.#claim({ guildId, id, until }), CLAIM_STORE_MS);
    } catch (err) {
      // The member waits: the answer goes ahead, guarded by this process's memory alone.
      this.logger.warn({ err, guildId }, 'interaction not recorded as handled: the store did not answer');
      return true;
    }
  }

  /**
   * SQLite syncs every commit to disk, one at a time (docs/performance.md, "Commands over HTTP"):
   * the claims made in one turn of the event loop, and those made while a write is under way, are
   * written together in one statement and one commit, each still answered only once it is stored.
   */
  #claim(claim: InteractionClaim): Promise<boolean> {
    const claimed = new Promise<boolean>((resolve, reject) => this.#waiting.push({ claim, resolve, reject }));
    if (!this.#writing) {
      this.#writing = true;
      setImmediate(() => void this.#write());
    }
    return claimed;
  }

  async #write(): Promise<void> {
    const batch = this.#waiting;
    this.#waiting = [];
    try {
      const claimed = await this.store.claimInteractions(batch.map((waiting) => waiting.claim));
      batch.forEach((waiting, i) => waiting.resolve(claimed[i] === true));
    } catch (err) {
      for (const waiting of batch) waiting.reject(err);
    }
    if (this.#waiting.length > 0) setImmediate(() => void this.#write());
    else this.#writing = false;
  }

  #forgetOld(now: number): void {
    if (now < this.#forgetAt) return;
    this.#forgetAt = now + FORGET_EVERY_MS;
    this.store.forgetHandledInteractions(now).catch((err: unknown) => {
      this.logger.warn({ err }, 'could not drop old handled interactions; tried again in a minute');
    });
  }
}
