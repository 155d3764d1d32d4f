import { randomBytes } from 'node:crypto';
import { HOUR_MS, SITE_FACTS, VOTE_API_SITE, isAdaptedSiteId, type AdaptedSiteId } from '../lists/index.js';
import { openSecret, sealingKeyId, sealSecret, type SecretKeys } from '../secrets/secret-box.js';
import type { ListingRecord, ListingStore } from '../store/index.js';

/** What the receiver checks a list's delivery with: the secret opened for that one request, and the vote length. */
export interface ListingCheck {
  secret: string;
  /** The listing's vote length setting; undefined: the site's default. */
  voteLengthMs?: number;
}

/** A listing as /setup shows it: never its secret. */
export interface ListingState {
  site: AdaptedSiteId;
  createdAt: number;
  lastDeliveryAt: number | null;
  lastTestAt: number | null;
  /** Set by LISTING_<SITE>_SECRET (single-server mode), not by /setup listing. */
  fromEnvironment: boolean;
  /** The listing's vote length setting (ms); null: the site's default (or the site sends it). */
  voteLengthMs: number | null;
  /** Whether it carries the site's API token (Top.gg's: votes missed while down are read back). */
  apiToken: boolean;
}

/** Single-server mode: the listings LISTING_<SITE>_SECRET sets for the one server. */
export interface EnvironmentListings {
  guildId: string;
  secrets: Partial<Record<AdaptedSiteId, string>>;
  /** LISTING_<SITE>_VOTE_HOURS, where set. */
  voteHours?: Partial<Record<AdaptedSiteId, number>>;
  /** LISTING_TOPGG_API_TOKEN. */
  topggApiToken?: string;
}

/** The SecretsKeyMissing of servers.ts, passed in so this file does not import it back. */
type KeysOrThrow = () => SecretKeys;

/**
 * Every server's listings (the lists besides Guilds it takes votes from), from the store and cached
 * like the servers' records; the secrets stay sealed here and are opened for the one delivery that
 * needs them. In single-server mode the environment's listings come first.
 */
export class Listings {
  readonly #records = new Map<string, Map<AdaptedSiteId, ListingRecord>>();
  /** The last delivery and test of the environment's listings (they have no row), read from the store. */
  readonly #environmentSeen = new Map<AdaptedSiteId, { lastDeliveryAt: number | null; lastTestAt: number | null }>();

  constructor(
    private readonly root: ListingStore,
    private readonly keys: SecretKeys | undefined,
    private readonly keysOrThrow: KeysOrThrow,
    readonly environment: EnvironmentListings | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  async load(): Promise<void> {
    const records = await this.root.listings();
    this.#records.clear();
    for (const record of records) this.#keep(record);
    await this.#loadEnvironmentSeen();
  }

  /** Reads one server's listings again: another process may have changed them. */
  async reload(guildId: string): Promise<void> {
    const records = await this.root.listings(guildId);
    this.#records.delete(guildId);
    for (const record of records) this.#keep(record);
    if (this.environment?.guildId === guildId) await this.#loadEnvironmentSeen();
  }

  /** The server's rows were deleted (/setup reset, or 30 days after leaving). */
  forget(guildId: string): void {
    this.#records.delete(guildId);
  }

  /** Whether the server takes any list's deliveries. */
  any(guildId: string): boolean {
    return this.sites(guildId).length > 0;
  }

  /** The sites the server is listed on besides Guilds, in the registry's order. */
  sites(guildId: string): AdaptedSiteId[] {
    return this.of(guildId).map((listing) => listing.site);
  }

  of(guildId: string): ListingState[] {
    const env = this.#environmentOf(guildId);
    const stored = this.#records.get(guildId);
    return (Object.keys(SITE_FACTS) as string[]).filter(isAdaptedSiteId).flatMap((site): ListingState[] => {
      if (env?.[site] !== undefined) {
        const seen = this.#environmentSeen.get(site);
        return [
          {
            site,
            createdAt: 0,
            lastDeliveryAt: seen?.lastDeliveryAt ?? null,
            lastTestAt: seen?.lastTestAt ?? null,
            fromEnvironment: true,
            voteLengthMs: this.#environmentLength(site) ?? null,
            apiToken: site === VOTE_API_SITE && this.environment?.topggApiToken !== undefined,
          },
        ];
      }
      const record = stored?.get(site);
      if (!record) return [];
      const { createdAt, lastDeliveryAt, lastTestAt, voteLengthMs } = record;
      const apiToken = typeof record.apiToken === 'string';
      return [{ site, createdAt, lastDeliveryAt, lastTestAt, fromEnvironment: false, voteLengthMs, apiToken }];
    });
  }

  /** The secret (opened now, never kept) and settings a delivery for this listing is checked with. */
  checkFor(guildId: string, site: AdaptedSiteId): ListingCheck | undefined {
    const env = this.#environmentOf(guildId)?.[site];
    if (env !== undefined) {
      const voteLengthMs = this.#environmentLength(site);
      return voteLengthMs === undefined ? { secret: env } : { secret: env, voteLengthMs };
    }
    const record = this.#records.get(guildId)?.get(site);
    if (!record || !this.keys) return undefined;
    const check: ListingCheck = { secret: openSecret(this.keys, guildId, record.secret) };
    if (record.voteLengthMs !== null) check.voteLengthMs = record.voteLengthMs;
    return check;
  }

  /**
   * Sets the server up on `site`: with the secret the site made (Top.gg's), or a new one the bot
   * makes, which is returned to be shown once. Replaces a listing already there, keeping its vote
   * length unless `voteLengthMs` is given (null: back to the site's default).
   */
  async add(guildId: string, site: AdaptedSiteId, siteSecret?: string, voteLengthMs?: number | null): Promise<string> {
    const keys = this.keysOrThrow();
    const secret = siteSecret ?? randomBytes(24).toString('base64url');
    const record: ListingRecord = {
      guildId,
      site,
      secret: sealSecret(keys, guildId, secret),
      voteLengthMs:
        voteLengthMs === undefined ? (this.#records.get(guildId)?.get(site)?.voteLengthMs ?? null) : voteLengthMs,
      // A new secret keeps the API token: the two are set apart.
      apiToken: this.#records.get(guildId)?.get(site)?.apiToken ?? null,
      createdAt: this.now(),
      lastDeliveryAt: null,
      lastTestAt: null,
    };
    await this.root.saveListing(record);
    this.#keep(record);
    return secret;
  }

  /** Changes a listing's vote length, its secret as it is; false when the server is not on the list. */
  async setVoteLength(guildId: string, site: AdaptedSiteId, voteLengthMs: number | null): Promise<boolean> {
    const record = this.#records.get(guildId)?.get(site);
    if (!record) return false;
    const changed = { ...record, voteLengthMs };
    await this.root.saveListing(changed);
    this.#keep(changed);
    return true;
  }

  /** Seals and keeps the listing's API token; false when the server is not on the list. */
  async setApiToken(guildId: string, site: AdaptedSiteId, token: string): Promise<boolean> {
    const record = this.#records.get(guildId)?.get(site);
    if (!record) return false;
    const changed = { ...record, apiToken: sealSecret(this.keysOrThrow(), guildId, token) };
    await this.root.saveListing(changed);
    this.#keep(changed);
    return true;
  }

  /** The servers whose Top.gg listing carries an API token, the environment's first. */
  withTopggToken(): string[] {
    const stored = [...this.#records].flatMap(([guildId, sites]) =>
      typeof sites.get(VOTE_API_SITE)?.apiToken === 'string' && guildId !== this.environment?.guildId ? [guildId] : [],
    );
    return this.environment?.topggApiToken === undefined ? stored : [this.environment.guildId, ...stored];
  }

  /** The server's Top.gg API token, opened for the one request being built; never kept. */
  topggToken(guildId: string): string | undefined {
    if (this.environment?.guildId === guildId && this.environment.topggApiToken !== undefined)
      return this.environment.topggApiToken;
    const sealed = this.#records.get(guildId)?.get(VOTE_API_SITE)?.apiToken;
    return typeof sealed === 'string' && this.keys ? openSecret(this.keys, guildId, sealed) : undefined;
  }

  async remove(guildId: string, site: AdaptedSiteId): Promise<boolean> {
    const removed = await this.root.removeListing(guildId, site);
    this.#records.get(guildId)?.delete(site);
    return removed;
  }

  /** A delivery from the list was handled: /setup status shows when, and when its last test came. */
  async delivered(guildId: string, site: AdaptedSiteId, at: number, test: boolean): Promise<void> {
    await this.root.listingDelivered(guildId, site, at, test);
    const seen =
      this.#environmentOf(guildId)?.[site] !== undefined
        ? this.#environmentSeenOf(site)
        : this.#records.get(guildId)?.get(site);
    if (!seen) return;
    seen.lastDeliveryAt = Math.max(seen.lastDeliveryAt ?? at, at);
    if (test) seen.lastTestAt = Math.max(seen.lastTestAt ?? at, at);
  }

  /** Re-seals every listing's secret under SECRETS_KEY; returns how many. */
  async resealAll(): Promise<number> {
    const keys = this.keysOrThrow();
    const reseal = (value: string, guildId: string) => sealSecret(keys, guildId, openSecret(keys, guildId, value));
    const resealed = this.#all().map((record) => ({
      ...record,
      secret: reseal(record.secret, record.guildId),
      apiToken: typeof record.apiToken === 'string' ? reseal(record.apiToken, record.guildId) : null,
    }));
    await this.root.resealListings(resealed);
    for (const record of resealed) this.#keep(record);
    return resealed.length;
  }

  /** Removes the listings whose secret neither key opens; returns them (each is added again with /setup listing). */
  async forgetLost(): Promise<ListingRecord[]> {
    const keys = this.keysOrThrow();
    const opens = (value: string) => [keys.current.id, keys.previous?.id].includes(sealingKeyId(value) ?? '');
    const lost = this.#all().filter(
      (record) => !opens(record.secret) || (typeof record.apiToken === 'string' && !opens(record.apiToken)),
    );
    for (const record of lost) await this.remove(record.guildId, record.site as AdaptedSiteId);
    return lost;
  }

  #all(): ListingRecord[] {
    return [...this.#records.values()].flatMap((sites) => [...sites.values()]);
  }

  async #loadEnvironmentSeen(): Promise<void> {
    if (!this.environment) return;
    this.#environmentSeen.clear();
    for (const { site, lastDeliveryAt, lastTestAt } of await this.root.listingActivity(this.environment.guildId))
      if (isAdaptedSiteId(site)) this.#environmentSeen.set(site, { lastDeliveryAt, lastTestAt });
  }

  #environmentSeenOf(site: AdaptedSiteId): { lastDeliveryAt: number | null; lastTestAt: number | null } {
    let seen = this.#environmentSeen.get(site);
    if (!seen) this.#environmentSeen.set(site, (seen = { lastDeliveryAt: null, lastTestAt: null }));
    return seen;
  }

  #environmentLength(site: AdaptedSiteId): number | undefined {
    const hours = this.environment?.voteHours?.[site];
    return hours === undefined ? undefined : hours * HOUR_MS;
  }

  #environmentOf(guildId: string): EnvironmentListings['secrets'] | undefined {
    return this.environment?.guildId === guildId ? this.environment.secrets : undefined;
  }

  #keep(record: ListingRecord): void {
    // A row of a site this version does not know (written by a newer one) is left alone.
    if (!isAdaptedSiteId(record.site)) return;
    let sites = this.#records.get(record.guildId);
    if (!sites) this.#records.set(record.guildId, (sites = new Map()));
    sites.set(record.site, record);
  }
}
