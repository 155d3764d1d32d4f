import type { Guild, Interaction } from 'discord.js';
import { BoundedMap } from '../core/bounded-map.js';
import { GatewayMembers } from './gateway-members.js';

/** How long a page may wait for the gateway's names before it is drawn without them. */
export const NAMES_WAIT_MS = 1_000;
/** How long a channel post may wait for them: the lane's next post waits behind it. */
export const POST_NAMES_WAIT_MS = 250;

/**
 * Members' display names, to show beside mentions: a client that has not loaded a member draws its
 * mention as a raw id. Names come from interactions the bot sees and from gateway member requests
 * (batched and paced by `members`, which the voter role shares). Bounded, and each name is kept an
 * hour: a stale name is only a label, and losing them all on a restart costs one request per page.
 */
export class MemberNames {
  readonly #names: BoundedMap<string, string>;

  constructor(
    maxEntries = 10_000,
    private readonly keepMs = 60 * 60_000,
    clock: () => number = Date.now,
    readonly members = new GatewayMembers(),
  ) {
    this.#names = new BoundedMap({ max: maxEntries, now: clock });
  }

  /** Written as the newest: the name refreshed longest ago goes first. */
  remember(userId: string, name: string): void {
    this.#names.set(userId, name, this.keepMs);
  }

  get(userId: string): string | undefined {
    return this.#names.get(userId);
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
   * Names for `ids`: the known ones at once, the rest as far as the gateway answers within `waitMs`.
   * An answer that comes later is still remembered for the next caller; a member who is gone, or a
   * gateway that does not answer, just has no name.
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
    const fetched = this.members.fetch(guild, missing).then(
      (members) => {
        for (const [id, member] of members) this.remember(id, member.displayName);
      },
      () => undefined,
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([fetched, waited]);
    clearTimeout(timer);
    for (const id of missing) {
      const name = this.get(id);
      if (name !== undefined) names.set(id, name);
    }
    return names;
  }
}
