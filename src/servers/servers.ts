import { randomBytes } from 'node:crypto';
import { openSecret, sealingKeyId, sealSecret, type SecretKeys } from '../secrets/secret-box.js';
import type { AdaptedSiteId } from '../lists/index.js';
import type { ForwardDestinationStore as Destinations, ListingStore, ServerRecordStore } from '../store/index.js';
import type { ServerRecord, ServerSettingsRecord, StoreRoot } from '../store/index.js';
import { environmentForwards, Forwards } from './forwards.js';
import { Listings } from './listings.js';
import { effectiveSettings, type ServerSettings } from './server-settings.js';

/** Single-server mode: the one server the environment sets up (DISCORD_GUILD_ID and the rest of .env). */
export interface EnvironmentServer {
  guildId: string;
  settings: ServerSettingsRecord;
  credentials: { apiKey: string; appId: string } | undefined;
  /** WEBHOOK_TOKEN: the single-server webhook path's token. */
  webhookToken: string | undefined;
  /** LISTING_<SITE>_SECRET: the lists besides Guilds the server takes votes from. */
  listingSecrets?: Partial<Record<AdaptedSiteId, string>>;
  /** LISTING_<SITE>_VOTE_HOURS: how long a vote on a list runs where the site does not say. */
  listingVoteHours?: Partial<Record<AdaptedSiteId, number>>;
  /** LISTING_TOPGG_API_TOKEN: reads back the Top.gg votes missed while the bot was down. */
  topggApiToken?: string | undefined;
  /** FORWARD_URLS and FORWARD_SECRET: where the server's votes are forwarded. */
  forwardUrls?: readonly string[];
  forwardSecret?: string;
}

export interface Credentials {
  apiKey: string;
  appId: string;
}

/** How long a server's data is kept after the bot leaves it (a kick by mistake loses nothing). */
export const KEEP_AFTER_LEAVING_MS = 30 * 24 * 3_600_000;

/** Secrets cannot be stored without SECRETS_KEY: said to the admin, and to the operator in the log. */
export class SecretsKeyMissing extends Error {
  constructor() {
    super('SECRETS_KEY is not set, so the bot cannot keep secrets for a server');
    this.name = 'SecretsKeyMissing';
  }
}

/**
 * Every server's settings and secrets, from the store (cached: a record changes only through this
 * class) and, in single-server mode, the environment. Secrets stay sealed here; `credentials` and
 * `webhookToken` open them for the one request that needs them.
 */
export class Servers {
  readonly #records = new Map<string, ServerRecord>();
  readonly #listeners: Array<(guildId: string) => void> = [];
  /** The lists besides Guilds each server takes votes from, with their sealed secrets. */
  readonly listings: Listings;
  /** The places each server's votes are forwarded to, with their sealed secrets. */
  readonly forwards: Forwards;

  constructor(
    private readonly root: ServerRecordStore & ListingStore & Destinations & Pick<StoreRoot, 'createdAt'>,
    private readonly keys: SecretKeys | undefined,
    /** Set in single-server mode. */
    readonly environment: EnvironmentServer | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.listings = new Listings(
      root,
      keys,
      () => this.#keys(),
      environment && {
        guildId: environment.guildId,
        secrets: environment.listingSecrets ?? {},
        voteHours: environment.listingVoteHours ?? {},
        ...(environment.topggApiToken === undefined ? {} : { topggApiToken: environment.topggApiToken }),
      },
      now,
    );
    this.forwards = new Forwards(root, keys, () => this.#keys(), environmentForwards(environment), now);
  }

  get mode(): 'single' | 'many' {
    return this.environment ? 'single' : 'many';
  }

  /** Reads every record; in single-server mode makes sure the server has one and owns the old rows. */
  async load(): Promise<{ adopted: number }> {
    for (const record of await this.root.servers()) this.#records.set(record.guildId, record);
    await this.listings.load();
    const env = this.environment;
    if (!env) return { adopted: 0 };
    const adopted = await this.root.adoptUnowned(env.guildId);
    await this.forwards.loadEnvironment();
    // The server a single-server install always served: counted since the store was made.
    if (!this.#records.has(env.guildId))
      await this.#save({ ...this.#fresh(env.guildId), createdAt: await this.root.createdAt() });
    return { adopted };
  }

  /** Reads one server's record again: another process (a bot's /setup, on a shared PostgreSQL) may have changed it. */
  async reload(guildId: string): Promise<void> {
    const before = this.#records.get(guildId);
    const [record] = await Promise.all([this.root.server(guildId), this.listings.reload(guildId)]);
    // Changed in this process while the read was out: that change is the newer one.
    if (this.#records.get(guildId) !== before) return;
    if (record) this.#records.set(guildId, record);
    else this.#records.delete(guildId);
  }

  onChange(listener: (guildId: string) => void): void {
    this.#listeners.push(listener);
  }

  /** Servers with a record, the ones left included. */
  known(): string[] {
    return [...this.#records.keys()];
  }

  record(guildId: string): ServerRecord | undefined {
    return this.#records.get(guildId);
  }

  /** The settings the bot acts on; undefined for a server it has never been set up for. */
  settings(guildId: string): ServerSettings | undefined {
    const record = this.#records.get(guildId);
    const env = this.environment?.guildId === guildId ? this.environment : undefined;
    if (!record && !env) return undefined;
    return effectiveSettings(guildId, record?.settings ?? {}, env?.settings);
  }

  /** Set up: the bot has the server's service credentials and has not left it. */
  isConfigured(guildId: string): boolean {
    if (this.environment?.guildId === guildId && this.environment.credentials) return true;
    const record = this.#records.get(guildId);
    return (
      record !== undefined && record.leftAt === null && record.sealed.apiKey !== null && record.sealed.appId !== null
    );
  }

  /** Set up and listening for some list's deliveries: a Guilds webhook token, or a listing. */
  takesDeliveries(guildId: string): boolean {
    return this.isConfigured(guildId) && (this.webhookToken(guildId) !== undefined || this.listings.any(guildId));
  }

  /** Opened for the request being built, never kept. */
  credentials(guildId: string): Credentials {
    const env = this.environment?.guildId === guildId ? this.environment.credentials : undefined;
    if (env) return env;
    const sealed = this.#records.get(guildId)?.sealed;
    if (!sealed?.apiKey || !sealed.appId) throw new Error(`server ${guildId} has no service credentials`);
    const keys = this.#keys();
    return { apiKey: openSecret(keys, guildId, sealed.apiKey), appId: openSecret(keys, guildId, sealed.appId) };
  }

  /** The token deliveries for this server carry; undefined when it has none (or is unknown). */
  webhookToken(guildId: string): string | undefined {
    const sealed = this.#records.get(guildId)?.sealed.webhookToken;
    if (sealed && this.keys) return openSecret(this.keys, guildId, sealed);
    return this.environment?.guildId === guildId ? this.environment.webhookToken : undefined;
  }

  async setCredentials(guildId: string, credentials: Credentials): Promise<void> {
    const keys = this.#keys();
    await this.#change(guildId, (record) => ({
      ...record,
      sealed: {
        ...record.sealed,
        apiKey: sealSecret(keys, guildId, credentials.apiKey),
        appId: sealSecret(keys, guildId, credentials.appId),
      },
    }));
  }

  async setSettings(guildId: string, patch: ServerSettingsRecord): Promise<void> {
    await this.#change(guildId, (record) => ({ ...record, settings: withoutEmpty({ ...record.settings, ...patch }) }));
  }

  /** A new random webhook token for the server; returned once, to show the admin. */
  async newWebhookToken(guildId: string): Promise<string> {
    const keys = this.#keys();
    const token = randomBytes(24).toString('base64url');
    await this.#change(guildId, (record) => ({
      ...record,
      sealed: { ...record.sealed, webhookToken: sealSecret(keys, guildId, token) },
    }));
    return token;
  }

  /** The bot is in the server (again): a server it had left keeps its data. */
  async joined(guildId: string): Promise<void> {
    if (this.#records.get(guildId)?.leftAt == null) return;
    await this.#change(guildId, (record) => ({ ...record, leftAt: null }));
  }

  async left(guildId: string): Promise<void> {
    if (!this.#records.has(guildId)) return;
    await this.#change(guildId, (record) => ({ ...record, leftAt: this.now() }));
  }

  /** Forgets the server: its settings, secrets and every row of its data. */
  async reset(guildId: string): Promise<void> {
    await this.root.forgetServer(guildId);
    this.#records.delete(guildId);
    this.listings.forget(guildId);
    if (this.environment?.guildId === guildId) {
      await this.#save(this.#fresh(guildId));
      // FORWARD_URLS still name the server's destinations: the reset deleted their rows, not the setting.
      await this.forwards.loadEnvironment();
    }
    this.#changed(guildId);
  }

  /** Deletes the servers the bot left more than 30 days ago; returns their ids. */
  async forgetLeft(): Promise<string[]> {
    const before = this.now() - KEEP_AFTER_LEAVING_MS;
    const gone = [...this.#records.values()].filter((r) => r.leftAt !== null && r.leftAt < before);
    for (const record of gone) await this.reset(record.guildId);
    return gone.map((r) => r.guildId);
  }

  /** Re-seals every secret under SECRETS_KEY, the listings' too; returns how many values were re-sealed. */
  async resealAll(): Promise<number> {
    const keys = this.#keys();
    let count = (await this.listings.resealAll()) + (await this.forwards.resealAll());
    for (const record of [...this.#records.values()]) {
      const sealed = { ...record.sealed };
      for (const field of SEALED_FIELDS) {
        const value = sealed[field];
        if (value === null) continue;
        sealed[field] = sealSecret(keys, record.guildId, openSecret(keys, record.guildId, value));
        count += 1;
      }
      await this.#save({ ...record, sealed, updatedAt: this.now() });
    }
    return count;
  }

  /**
   * Drops the secrets that neither key opens, their key being lost; returns how many and the servers
   * that had them, each of which runs /setup credentials (and /setup webhook) again.
   */
  async forgetLost(): Promise<{ values: number; guildIds: string[] }> {
    const keys = this.#keys();
    const opens = (value: string) => [keys.current.id, keys.previous?.id].includes(sealingKeyId(value) ?? '');
    const lost = [...(await this.listings.forgetLost()), ...(await this.forwards.forgetLost())];
    let values = lost.length;
    const guildIds: string[] = [...new Set(lost.map((one) => one.guildId))];
    for (const record of [...this.#records.values()]) {
      const sealed = { ...record.sealed };
      for (const field of SEALED_FIELDS) {
        const value = sealed[field];
        if (value === null || opens(value)) continue;
        sealed[field] = null;
        values += 1;
      }
      if (SEALED_FIELDS.every((field) => sealed[field] === record.sealed[field])) continue;
      if (!guildIds.includes(record.guildId)) guildIds.push(record.guildId);
      await this.#save({ ...record, sealed, updatedAt: this.now() });
    }
    return { values, guildIds };
  }

  async #change(guildId: string, change: (record: ServerRecord) => ServerRecord): Promise<void> {
    const before = this.#records.get(guildId) ?? this.#fresh(guildId);
    await this.#save({ ...change(before), updatedAt: this.now() });
    this.#changed(guildId);
  }

  async #save(record: ServerRecord): Promise<void> {
    await this.root.saveServer(record);
    this.#records.set(record.guildId, record);
  }

  #changed(guildId: string): void {
    for (const listener of this.#listeners) listener(guildId);
  }

  #fresh(guildId: string): ServerRecord {
    const at = this.now();
    return {
      guildId,
      settings: {},
      sealed: { apiKey: null, appId: null, webhookToken: null },
      createdAt: at,
      updatedAt: at,
      leftAt: null,
    };
  }

  #keys(): SecretKeys {
    if (!this.keys) throw new SecretsKeyMissing();
    return this.keys;
  }
}

const SEALED_FIELDS = ['apiKey', 'appId', 'webhookToken'] as const;

/** A setting cleared by /setup is left out, not stored as an empty value. */
function withoutEmpty(settings: ServerSettingsRecord): ServerSettingsRecord {
  return Object.fromEntries(
    Object.entries(settings).filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)),
  );
}
