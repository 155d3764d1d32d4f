import { createHash, randomBytes } from 'node:crypto';
import { openSecret, sealSecret, type SecretKeys } from '../secrets/secret-box.js';
import type { DueForward, ForwardDestinationRecord, ForwardDestinationStore } from '../store/index.js';

/** Single-server mode: FORWARD_URLS, each signed with FORWARD_SECRET. */
export interface EnvironmentForwards {
  guildId: string;
  urls: readonly string[];
  secret: string | undefined;
}

/** FORWARD_URLS and FORWARD_SECRET of the environment's server, if there is one. */
export function environmentForwards(
  server: { guildId: string; forwardUrls?: readonly string[]; forwardSecret?: string } | undefined,
): EnvironmentForwards | undefined {
  return server && { guildId: server.guildId, urls: server.forwardUrls ?? [], secret: server.forwardSecret };
}

/** A new destination, or a new secret for one: the whole secret, shown this once. */
export interface MadeDestination {
  destination: ForwardDestinationRecord;
  secret: string;
}

/** What a destination's secret begins with, so an admin tells it from the list's secrets at a glance. */
const SECRET_PREFIX = 'vrf_';

/** The secret's last four characters: what is shown after the one time it is shown whole. */
const endOf = (secret: string) => secret.slice(-4);

/** A FORWARD_URLS destination's id: the same URL keeps its id (and its waiting deliveries) across restarts. */
const environmentId = (url: string) => `env-${createHash('sha256').update(url).digest('hex').slice(0, 12)}`;

/**
 * Every server's forwarding destinations (issue 51), read from the store when asked (nothing kept per
 * server: the worker records each send's result there). Secrets stay sealed; `secretOf` opens one
 * for the one request being built. In single-server mode FORWARD_URLS are the server's destinations.
 */
export class Forwards {
  constructor(
    private readonly root: ForwardDestinationStore,
    private readonly keys: SecretKeys | undefined,
    private readonly keysOrThrow: () => SecretKeys,
    readonly environment: EnvironmentForwards | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  of(guildId: string): Promise<ForwardDestinationRecord[]> {
    return this.root.forwardDestinations(guildId);
  }

  /** Makes FORWARD_URLS the environment server's destinations: rows for new URLs, none for ones taken out. */
  async loadEnvironment(): Promise<void> {
    const env = this.environment;
    if (!env) return;
    const wanted = new Map(env.urls.map((url) => [environmentId(url), url]));
    for (const kept of await this.of(env.guildId))
      if (!wanted.has(kept.id) || kept.secretEnd !== endOf(env.secret ?? ''))
        await this.root.removeForwardDestination(env.guildId, kept.id);
    const present = new Set((await this.of(env.guildId)).map((d) => d.id));
    for (const [id, url] of wanted)
      if (!present.has(id))
        await this.root.saveForwardDestination({
          guildId: env.guildId,
          id,
          url,
          secret: null,
          secretEnd: endOf(env.secret ?? ''),
          fromEnvironment: true,
          createdAt: this.now(),
        });
  }

  /** Adds a destination with a new secret, or gives `existing` a new one (its old one stops working). */
  async make(guildId: string, url: string, existing?: ForwardDestinationRecord): Promise<MadeDestination> {
    const keys = this.keysOrThrow();
    const secret = `${SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
    const saved = {
      guildId,
      id: existing?.id ?? randomBytes(6).toString('hex'),
      url,
      secret: sealSecret(keys, guildId, secret),
      secretEnd: endOf(secret),
      fromEnvironment: false,
      createdAt: existing?.createdAt ?? this.now(),
    };
    await this.root.saveForwardDestination(saved);
    const destination = {
      ...saved,
      lastAt: null,
      lastResult: null,
      failingSince: null,
      waiting: existing?.waiting ?? 0,
    };
    return { destination, secret };
  }

  remove(guildId: string, id: string): Promise<boolean> {
    return this.root.removeForwardDestination(guildId, id);
  }

  /** The destination's secret, opened now and never kept; undefined when no key opens it (or none is set). */
  secretOf(destination: Pick<DueForward, 'guildId' | 'secret' | 'fromEnvironment'>): string | undefined {
    if (destination.fromEnvironment)
      return this.environment?.guildId === destination.guildId ? this.environment.secret : undefined;
    if (!this.keys || destination.secret === null) return undefined;
    try {
      return openSecret(this.keys, destination.guildId, destination.secret);
    } catch {
      return undefined;
    }
  }

  /** Re-seals every stored destination secret of `guildIds` under SECRETS_KEY; returns how many. */
  async resealAll(guildIds: readonly string[]): Promise<number> {
    const keys = this.keysOrThrow();
    const resealed: Array<Pick<ForwardDestinationRecord, 'guildId' | 'id' | 'secret'>> = [];
    for (const guildId of guildIds)
      for (const destination of await this.of(guildId)) {
        if (destination.secret === null) continue;
        const open = openSecret(keys, guildId, destination.secret);
        resealed.push({ guildId, id: destination.id, secret: sealSecret(keys, guildId, open) });
      }
    await this.root.resealForwardDestinations(resealed);
    return resealed.length;
  }
}
