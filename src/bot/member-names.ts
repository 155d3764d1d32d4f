import type { Guild, Interaction } from 'discord.js';

/** How long a page may wait for the gateway's names before it is drawn without them. */
export const NAMES_WAIT_MS = 1_000;

interface Entry {
  name: string;
  at: number;
}

/**
 * Members' display names, to show beside mentions: a client that has not loaded a member draws its
 * mention as a raw id. Names come from interactions the bot sees and from one gateway member
 * request per page (asking by ids needs no privileged intent). Bounded, and each name is kept an
 * hour: a stale name is only a label, and losing them all on a restart costs one request per page.
 */
export class MemberNames {
  readonly #names = new Map<string, Entry>();

  constructor(
    private readonly maxEntries = 10_000,
    private readonly keepMs = 60 * 60_000,
    private readonly clock: () => number = Date.now,
  ) {}

  remember(userId: string, name: string): void {
    this.#names.delete(userId);
    this.#names.set(userId, { name, at: this.clock() });
    if (this.#names.size > this.maxEntries) {
      const oldest = this.#names.keys().next();
      if (!oldest.done) this.#names.delete(oldest.value);
    }
  }

  get(userId: string): string | undefined {
    const entry = this.#names.get(userId);
    if (entry === undefined) return undefined;
    if (this.clock() - entry.at < this.keepMs) return entry.name;
    this.#names.delete(userId);
    return undefined;
  }

  /** The caller's name and those of the members an interaction names in its options. */
  rememberFrom(interaction: Interaction): void {
    const { member, user } = interaction;
    this.remember(user.id, member && 'displayName' in member ? member.displayName : user.displayName);
    if (!interaction.isChatInputCommand()) return;
    const resolved = interaction.options.resolved;
    for (const [id, named] of resolved?.users ?? []) {
      const asMember = resolved?.members?.get(id);
      this.remember(id, asMember && 'displayName' in asMember ? asMember.displayName : named.displayName);
    }
  }

  /**
   * Names for `ids`: the known ones at once, the rest from one gateway request that may take up to
   * `waitMs`. A member who is gone, or a gateway that does not answer in time, just has no name.
   */
  async resolve(guild: Guild | null, ids: readonly string[], waitMs = NAMES_WAIT_MS): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const name = this.get(id);
      if (name === undefined) missing.push(id);
      else names.set(id, name);
    }
    if (guild === null || missing.length === 0) return names;
    try {
      const fetched = await guild.members.fetch({ user: missing, time: waitMs });
      for (const [id, member] of fetched) {
        this.remember(id, member.displayName);
        names.set(id, member.displayName);
      }
    } catch {
      // A timeout or a closed gateway: the page is drawn with the names it has.
    }
    return names;
  }
}
