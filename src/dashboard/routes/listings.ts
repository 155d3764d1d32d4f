import { UserFacingError } from '../../bot/user-error.js';
import { isAdaptedSiteId, LIST_SITE_IDS, SITE_FACTS } from '../../lists/index.js';
import { applyCredentials, credentialsShown } from '../../setup/credentials.js';
import { applyListingAdd, listingsFacts } from '../../setup/listing.js';
import { publicUrlMissing } from '../../setup/listing-facts.js';
import { applyListingSecret } from '../../setup/listing-secret.js';
import { revealSecret } from '../../setup/reveal.js';
import { applyWebhook, webhookFacts } from '../../setup/webhook.js';
import { CredentialsField } from '../../views/credentials-modal.js';
import type { ListingFacts, ShownSecret } from '../../views/listing.js';
import { formOf, type Form } from '../form-body.js';
import { PAGES } from '../pages/form.js';
import { LISTING_ACTIONS, LISTING_FIELDS, listingsPage, type PendingList } from '../pages/listings.js';
import { plainText } from '../page-text.js';
import { FORWARD_ACTIONS, FORWARD_FIELDS, forwardsCard } from '../pages/forwards.js';
import { applyForwardAdd, applyForwardRemove } from '../../setup/forward.js';
import type { ShownDestination } from '../../views/forward.js';
import type { At, GuildRoute, PageRoutes } from './kit.js';
import { backTo, doneOf, withNotice, type Notice } from './records-notice.js';

interface Shown {
  notice?: Notice;
  /** A secret shown whole once (made, rotated or revealed), on its list's card. */
  secret?: { site: string; secret: ShownSecret; address?: string };
  status?: number;
  /** A list added whose secret the site makes (Top.gg): its card asks for it. */
  pending?: PendingList;
  /** A forwarding destination just added or given a new secret: its secret shown whole once. */
  forward?: ShownDestination;
}

/**
 * Credentials and listings: each list's card (address, secret shown once, reveal, rotate), the add
 * form and the service's credentials. Reads are /setup listing's and /setup webhook's; changes go
 * through their apply functions with the member as a dashboard actor.
 */
export const listingsRoutes: PageRoutes = (app, kit) => {
  app.get<GuildRoute>(`/servers/:guildId/${PAGES.listings}`, kit.gates.read, async (request, reply) => {
    const v = await kit.visit(request, reply, true);
    return v ? show({ kit, request, reply, v }, { notice: doneOf(request, v.i18n) }) : reply;
  });

  app.post<GuildRoute>(`/servers/:guildId/${PAGES.listings}`, kit.gates.change, async (request, reply) => {
    const v = await kit.visit(request, reply, false);
    if (!v) return reply;
    const at = { kit, request, reply, v };
    try {
      return await change(at, formOf(request));
    } catch (error) {
      if (!(error instanceof UserFacingError)) throw error;
      return show(at, { notice: { refused: error }, status: 400 });
    }
  });
};

async function facts({ kit, v }: At): Promise<ListingFacts[] | UserFacingError> {
  const { base } = kit.deps;
  try {
    return [await webhookFacts(base, v.guild.id, v.i18n), ...listingsFacts(base, v.guild.id, v.i18n)];
  } catch (error) {
    if (error instanceof UserFacingError) return error;
    throw error;
  }
}

async function show(at: At, shown: Shown = {}) {
  const { kit, request, reply, v } = at;
  const { guild, i18n } = v;
  const found = await facts(at);
  // Receiving off (no WEBHOOK_PORT): no list to show, and the page says why; the credentials still are.
  const off = found instanceof UserFacingError;
  const { secret, pending } = shown;
  const cards = off ? [] : found.map((f) => (secret && f.site === secret.site ? { ...f, ...secret } : f));
  const listed = new Set([...cards.map((f) => f.site), pending?.site]);
  const addable = LIST_SITE_IDS.filter((site) => !listed.has(site)).map((site) => ({
    site,
    name: SITE_FACTS[site].name,
  }));
  // A page with a whole secret is kept by no cache and no history.
  if (secret || shown.forward) reply.header('cache-control', 'no-store');
  const destinations = (await kit.deps.base.servers.forwards.of(guild.id)).map((d) =>
    shown.forward?.url === d.url ? shown.forward : d,
  );
  const forwards = forwardsCard({
    ...v,
    guildId: guild.id,
    destinations,
    fromEnvironment: kit.deps.base.servers.mode === 'single',
    i18n,
  });
  const body = listingsPage({
    guildId: guild.id,
    csrf: v.csrf,
    listings: cards,
    credentials: credentialsShown(kit.deps.base, guild.id),
    ...(off ? {} : { addable, addressProblem: publicUrlMissing(kit.deps.base, i18n) }),
    ...(pending ? { pending } : {}),
    forwards,
    i18n,
  });
  const notice = shown.notice ?? (off ? { refused: found } : undefined);
  return kit.send(request, reply, v, 'listings', withNotice(request, notice, i18n, body), shown.status);
}

/** One of the page's forms: reveal, credentials, add, or make a list's secret again. */
async function change(at: At, form: Form) {
  const { kit, reply, v } = at;
  const { base } = kit.deps;
  const { target, actor, guild } = v;
  const site = String(form[LISTING_FIELDS.site] ?? '');
  const action = form[LISTING_FIELDS.action];
  if (action === LISTING_ACTIONS.reveal) {
    const secret = await revealSecret(base, target, { site }, actor);
    const revealed = { done: v.i18n.t('dashboard.pages.listings.revealed') };
    return show(at, { notice: revealed, secret: { site, secret: { whole: secret } } });
  }
  if (action === LISTING_ACTIONS.credentials) {
    const input = { apiKey: form[CredentialsField.apiKey], appId: form[CredentialsField.appId] };
    await applyCredentials(base, target, input, actor);
    return backTo(reply, guild.id, PAGES.listings, 'credentials');
  }
  if (action === LISTING_ACTIONS.add) return add(at, form);
  if (action === LISTING_ACTIONS.apiToken) {
    await applyListingAdd(base, target, { site, apiToken: String(form[LISTING_FIELDS.apiToken] ?? '') }, actor);
    return backTo(reply, guild.id, PAGES.listings, 'saved');
  }
  if (action === FORWARD_ACTIONS.add || action === FORWARD_ACTIONS.remove) return forward(at, form);
  if (action !== LISTING_ACTIONS.rotate) throw new UserFacingError('refusal.listingUnknownSite');
  if (site === 'guilds') {
    const { token } = await applyWebhook(base, target, { rotate: true }, actor);
    const made = { done: v.i18n.t('dashboard.pages.listings.made') };
    return show(at, { notice: made, secret: { site, secret: token } });
  }
  // A list whose site makes the secret (Top.gg) takes the one pasted; for the others the bot makes one.
  if (isAdaptedSiteId(site) && SITE_FACTS[site].secretFrom === 'site') {
    await applyListingSecret(base, target, { site, secret: form[LISTING_FIELDS.secret] }, actor);
    return backTo(reply, guild.id, PAGES.listings, 'saved');
  }
  return added(at, await applyListingAdd(base, target, { site, rotate: true }, actor));
}

/** The add form: `/setup listing add site: vote-hours:`, answered on the page as the command answers. */
async function add(at: At, form: Form) {
  const { kit, v } = at;
  const site = String(form[LISTING_FIELDS.site] ?? '');
  const hours = String(form[LISTING_FIELDS.voteHours] ?? '').trim();
  const input = { site, ...(hours === '' ? {} : { voteHours: Number(hours) }) };
  const result = await applyListingAdd(kit.deps.base, v.target, input, v.actor);
  if ('listing' in result && 'none' in result.listing.secret) {
    // The site makes the secret (Top.gg): nothing is kept until it is pasted into the card this adds.
    const { listing } = result;
    const steps = plainText(v.i18n.t(`setup.listing.steps.${listing.site}`));
    const pending = { site, name: SITE_FACTS[listing.site].name, address: listing.address, steps };
    return show(at, { pending });
  }
  return added(at, result);
}

/** A list's secret made: shown once on its card; one server from .env says where its secrets are set instead. */
function added(at: At, result: Awaited<ReturnType<typeof applyListingAdd>>) {
  const { i18n } = at.v;
  if ('environment' in result) {
    const { key, vars } = result.environment;
    return show(at, { notice: { done: i18n.t(`${key}.text`, vars(i18n)) } });
  }
  const { site, secret, address } = result.listing;
  return show(at, { notice: { done: i18n.t('dashboard.pages.listings.made') }, secret: { site, secret, address } });
}

/** `/setup forward add url:` and `remove url:` as the page's forms, through the same apply functions. */
async function forward(at: At, form: Form) {
  const { kit, v } = at;
  const forwardUrl = String(form[FORWARD_FIELDS.url] ?? '');
  if (form[FORWARD_FIELDS.action] === FORWARD_ACTIONS.add) {
    const made = await applyForwardAdd(kit.deps.base, v.target, { forwardUrl }, v.actor);
    // One already there is shown as it is: its secret by its end, nothing made.
    const done = made.wholeSecret
      ? v.i18n.t('dashboard.pages.listings.made')
      : v.i18n.t('setup.forward.saved.text', { url: made.url, last4: made.secretEnd });
    return show(at, { notice: { done }, forward: made });
  }
  const { key, vars } = await applyForwardRemove(kit.deps.base, v.target, { forwardUrl }, v.actor);
  return show(at, { notice: { done: v.i18n.t(`${key}.text`, vars(v.i18n)) } });
}
