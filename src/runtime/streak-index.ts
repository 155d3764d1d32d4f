import type { MemberStreak, StreakStore } from '../store/index.js';

/** A poll can move period ends without a vote being recorded: what is in memory is read again after this. */
const MAX_AGE_MS = 60_000;

/**
 * The streaks alive in one server, kept in memory so `/vote` and the leaderboard read no store on
 * their hot path (a store read per `/vote` was most of the bot's CPU under load). Loaded once,
 * forgotten whenever a vote is recorded or seen running, and at the latest a minute after loading.
 */
export class StreakIndex {
  #rows: Map<string, { streak: number; periodEndsAt: number }> | undefined;
  #loadedAt = 0;
  #loading: Promise<Map<string, { streak: number; periodEndsAt: number }>> | undefined;
  /** Changes so far: a load that overlapped one is used once, and read again next time. */
  #changes = 0;

  constructor(
    private readonly store: Pick<StreakStore, 'latestStreaks'>,
    /** The server's grace window: a streak is alive until its last period ran out this long ago. */
    private readonly graceMs: number,
  ) {}

  /** A vote was recorded or a period moved: the next read loads again. */
  changed(): void {
    this.#changes += 1;
    this.#rows = undefined;
    this.#loading = undefined;
  }

  /** The member's streak at `now`; 0 when it is not alive. */
  async streakOf(userId: string, now: number): Promise<number> {
    const row = (await this.#read(now)).get(userId);
    return row && row.periodEndsAt + this.graceMs >= now ? row.streak : 0;
  }

  /** Every streak alive at `now`, longest first. */
  async alive(now: number): Promise<MemberStreak[]> {
    return [...(await this.#read(now))]
      .filter(([, row]) => row.periodEndsAt + this.graceMs >= now)
      .map(([userId, row]) => ({ userId, streak: row.streak }))
      .sort((a, b) => b.streak - a.streak || (a.userId < b.userId ? -1 : 1));
  }

  async #read(now: number): Promise<Map<string, { streak: number; periodEndsAt: number }>> {
    if (this.#rows && now - this.#loadedAt < MAX_AGE_MS) return this.#rows;
    const changes = this.#changes;
    const loading = (this.#loading ??= this.store
      .latestStreaks(now - this.graceMs)
      .then(
        (rows) => new Map(rows.map((row) => [row.userId, { streak: row.streak, periodEndsAt: row.periodEndsAt }])),
      ));
    try {
      const rows = await loading;
      // Nothing changed while it loaded: kept. Streaks only die with time, which every read checks.
      if (changes === this.#changes) {
        this.#rows = rows;
        this.#loadedAt = now;
      }
      return rows;
    } finally {
      if (this.#loading === loading) this.#loading = undefined;
    }
  }
}
