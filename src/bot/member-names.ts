import type { Guild, Interaction } from 'discord.js';
import { BoundedMap } from '../core/bounded-map.js';
import { GatewayMembers } from './gateway-members.js';

/** How long a page may wait for the gateway's names before it is drawn without them. */
const NAMES_WAIT_MS = 1_000;
/** How long a channel post may wait for them: the lane's next post waits behind it. */
export const POST_NAMES_WAIT_MS = 250;

/**
 * Where a name was learned. Discord's own (an interaction, a gateway member) is the member's name in
 * that server; a list's delivery only says what the list was told, by whoever holds the server's
 * secret, so it never replaces Discord's.
 */
export type NameSource = 'discord' | 'delivery';

/** One server's part of the names: what its handlers and posts read and write. */
export interface ServerNames {
  /** The name Discord gave (or, without `only`, the one a delivery gave when Discord gave none). */
  get(userId: string, only?: NameSource): string | undefined;
  remember(userId: string, name: string, source?: NameSource): void;
  /** Names for `ids`, asking the gateway for the missing ones for up to `waitMs`. */
  resolve(guild: Guild | null, ids: readonly string[], waitMs?: number): Promise<Map<string, string>>;
}

/**
 * Members' display names, to show beside mentions: a client that has not loaded a member draws its
 * mention as a raw id. Names come from interactions the bot sees, from gateway member requests
 * (batched and paced by `members`, which the voter role shares) and from lists' deliveries. Every
 * name is kept under the server it was learned in and shown only there: a name is what a member is
 * called in one server, and a delivery's name is whatever that server's admin sent. Bounded, and each
 * name is kept an hour: a stale name is only a label, and losing them all on a restart costs one
 * request per page.
 */
export class MemberNames {
  /** By `guildId/userId`: a name Discord gave. */
  readonly #names: BoundedMap<string, string>;
  /** By `guildId/userId`: a name a delivery gave, shown only while Discord has given none. */
  readonly #heard: BoundedMap<string, string>;

  constructor(
    maxEntries = 10_000,
    private readonly keepMs = 60 * 60_000,
    clock: () => number = Date.now,
    readonly members = new GatewayMembers(),
  ) {
    this.#names = new BoundedMap({ max: maxEntries, now: clock });
    this.#heard = new BoundedMap({ max: maxEntries, now: clock });
  }

  /** Written as the newest: the name refreshed longest ago goes first. */
  remember(guildId: string, userId: string, name: string, source: NameSource = 'discord'): void {
    const key = `${guildId}/${userId}`;
    if (source === 'discord') this.#names.set(key, name, this.keepMs);
    else this.#heard.set(key, name, this.keepMs);
  }

  get(guildId: string, userId: string, only?: NameSource): string | undefined {
    const key = `${guildId}/${userId}`;
    if (only === 'delivery') return this.#heard.get(key);
    return this.#names.get(key) ?? (only === 'discord' ? undefined : this.#heard.get(key));
  }

  /** One server's names: what its context and its posts are handed. */
  of(guildId: string): ServerNames {
    return {
      get: (userId, only) => this.get(guildId, userId, only),
      remember: (userId, name, source) => this.remember(guildId, userId, name, source),
      resolve: (guild, ids, waitMs) => this.resolve(guildId, guild, ids, waitMs),
    };
  }

  /** The caller's name and those of the members an interaction names in its options, in its server. */
  rememberFrom(interaction: Interaction): void {
    const { member, user, guildId } = interaction;
    // A name learned in a DM is no server's: nothing shows it.
    if (guildId === null) return;
    this.remember(guildId, user.id, member && 'displayName' in member ? member.displayName : user.displayName);
    if (!interaction.isChatInputCommand()) return;
    const resolved = interaction.options.resolved;
    for (const [id, named] of resolved?.users ?? []) {
      const asMember = resolved?.members?.get(id);
      this.remember(guildId, id, asMember && 'displayName' in asMember ? asMember.displayName : named.displayName);
    }
  }

  /**
   * Names in server `guildId` for `ids`: the known ones at once, the rest as far as the gateway
   * answers within `waitMs`. An answer that comes later is still remembered for the next caller; a
   * member who is gone, or a gateway that does not answer, just has no name.
   */
  async resolve(
    guildId: string,
    guild: Guild | null,
    ids: readonly string[],
    waitMs = NAMES_WAIT_MS,
  ): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const name = this.get(guildId, id);
      if (name === undefined) missing.push(id);
      else names.set(id, name);
    }
    if (guild === null || guild.id !== guildId || missing.length === 0) return names;
    const fetched = this.members.fetch(guild, missing).then(
      (members) => {
        for (const [id, member] of members) this.remember(guildId, id, member.displayName);
      },
      () => undefined,
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([fetched, waited]);
    clearTimeout(timer);
    for (const id of missing) {
      const name = this.get(guildId, id);
      if (name !== undefined) names.set(id, name);
    }
    return names;
  }
}
