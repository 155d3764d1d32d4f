import type { Config } from '../config/bot.js';
import { listingAddress, listingSecretVariable, SITE_FACTS, type AdaptedSiteId } from '../lists/index.js';
import type { ListingState } from '../servers/listings.js';
import { environmentServer } from '../servers/environment-server.js';
import { Servers } from '../servers/servers.js';
import { openStore } from '../store/index.js';
import { inspectStore } from '../store/inspect.js';
import { fail, pass, skip, type Check, type DoctorState } from './check.js';
import { reach } from './webhook-check.js';
import { utcText } from '../views/format.js';

/**
 * The lists the server takes votes from besides Guilds (LISTING_<SITE>_SECRET and /setup listing),
 * read from the store with their last delivery and test; then one line each. Only for a server the
 * doctor looks at: one from .env, or `--server <id>`.
 */
export function listingChecks(state: DoctorState): Check[] {
  const guildId = state.config?.discord.guildId;
  if (!state.config?.webhook || guildId === undefined) return [];
  return [{ name: 'lists besides Guilds', run: (s) => loadListings(s, guildId) }];
}

/** One line per list found by the check above. */
export function listingLines(state: DoctorState): Check[] {
  return (state.listings ?? []).map((listing) => ({
    name: `list ${SITE_FACTS[listing.site].name}`,
    run: (s) => checkListing(s, listing),
  }));
}

async function loadListings(state: DoctorState, guildId: string) {
  const config = state.config!;
  const { fresh } = await inspectStore(config.database);
  if (fresh) {
    const secrets = Object.entries(config.webhook?.listingSecrets ?? {});
    state.listings = secrets.filter(([, secret]) => secret !== undefined).map(([site]) => fromEnvironment(site));
  } else {
    const store = await openStore(config.database);
    try {
      // With many servers (--server) the secrets stay sealed here: only the lists and their times are read.
      const servers = new Servers(store, config.secrets, state.oneOfMany ? undefined : environmentServer(config));
      await servers.load();
      state.listings = servers.listings.of(guildId);
    } finally {
      await store.close();
    }
  }
  if (state.listings.length === 0) return pass('none; votes come from Guilds only.');
  return pass(`${state.listings.map((l) => SITE_FACTS[l.site].name).join(', ')}.`);
}

const fromEnvironment = (site: string): ListingState => ({
  site: site as AdaptedSiteId,
  createdAt: 0,
  lastDeliveryAt: null,
  lastTestAt: null,
  fromEnvironment: true,
  voteLengthMs: null,
  apiToken: false,
});

async function checkListing(state: DoctorState, listing: ListingState) {
  const config = state.config;
  const webhook = config?.webhook;
  if (!config || !webhook) return skip('the configuration does not parse.');
  const set = listing.fromEnvironment ? listingSecretVariable(listing.site) : '/setup listing';
  const times = `last delivery ${when(listing.lastDeliveryAt)}, last test ${when(listing.lastTestAt)}`;
  const address = listingAddress(webhook, addressServer(config, state), listing.site);
  if (webhook.publicUrl === undefined)
    return fail(
      `set by ${set}; ${times}; WEBHOOK_PUBLIC_URL is not set, so the address to paste on ${SITE_FACTS[listing.site].name} (…${address}) cannot be checked.`,
      'set WEBHOOK_PUBLIC_URL to the address the lists reach the receiver at (docs/webhooks.md).',
    );
  const reached = await reach(address);
  if (!reached.ok)
    return fail(
      `set by ${set}; ${times}; ${address} is not reachable from here (${reached.cause}).`,
      'check WEBHOOK_PUBLIC_URL and the proxy in front of the receiver: it must forward every path under it (docs/webhooks.md).',
    );
  return pass(`set by ${set}; ${times}; ${address} answers (HTTP ${reached.status}).`);
}

/** One server from .env has addresses without its id; with many servers each address names the server. */
const addressServer = (config: Config, state: DoctorState) => (state.oneOfMany ? config.discord.guildId : undefined);

/** `2026-11-28 10:43 UTC`, or none yet. */
const when = (at: number | null) => (at === null ? 'none yet' : utcText(at));
