import { createHash, randomBytes } from 'node:crypto';
import { openSecret, sealingKeyId, sealSecret, type SecretKeys } from '../secrets/secret-box.js';
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
    const kept = await this.of(env.guildId);
    for (const { id } of kept) if (!wanted.has(id)) await this.root.removeForwardDestination(env.guildId, id);
    // A new FORWARD_SECRET keeps the deliveries waiting: they are signed with it when they are sent.
    const current = new Set(kept.filter((d) => d.secretEnd === endOf(env.secret ?? '')).map((d) => d.id));
    for (const [id, url] of wanted)
      if (!current.has(id))
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

  /** Re-seals every stored destination secret under SECRETS_KEY; returns how many. */
  async resealAll(): Promise<number> {
    const keys = this.keysOrThrow();
    const resealed: Array<Pick<ForwardDestinationRecord, 'guildId' | 'id' | 'secret'>> = [];
    for (const { guildId, id, secret } of await this.root.forwardDestinations()) {
      if (secret === null) continue;
      resealed.push({ guildId, id, secret: sealSecret(keys, guildId, openSecret(keys, guildId, secret)) });
    }
    await this.root.resealForwardDestinations(resealed);
    return resealed.length;
  }

  /** Removes the destinations whose secret neither key opens; returns them (each is added again). */
  async forgetLost(): Promise<ForwardDestinationRecord[]> {
    const keys = this.keysOrThrow();
    const opens = (value: string) => [keys.current.id, keys.previous?.id].includes(sealingKeyId(value) ?? '');
    const lost = (await this.root.forwardDestinations()).filter((d) => d.secret !== null && !opens(d.secret));
    for (const destination of lost) await this.remove(destination.guildId, destination.id);
    return lost;
  }
}
