import type { Guild } from 'discord.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInputError, ReplyRefusedError } from '../api/index.js';
import { errorOutcome, type UserMessage } from '../bot/error-outcome.js';
import { discordPoster } from '../bot/poster.js';
import { UserFacingError } from '../bot/user-error.js';
import { secretValues } from '../config/bot.js';
import { translatorFor, type MessageKey, type Translator } from '../i18n/index.js';
import { postReviewReply } from '../interactions/review-reply-post.js';
import { isAdaptedSiteId, listName, listReviewOrigin, SITE_FACTS, SITE_IDS } from '../lists/index.js';
import type { Actor, ChangeTarget } from '../setup/change.js';
import { applyCredentials, credentialsShown } from '../setup/credentials.js';
import {
  applyListingAdd,
  applyListingSecret,
  environmentSites,
  listingsFacts,
  publicUrlMissing,
} from '../setup/listing.js';
import { deliveryFixes } from '../setup/delivery-fixes.js';
import { revealSecret } from '../setup/reveal.js';
import { applyWebhook, webhookFacts } from '../setup/webhook.js';
import { renderStats } from '../stats/render-stats.js';
import { readStats, STATS_DEFAULT_DAYS } from '../stats/stats-data.js';
import { CredentialsField } from '../views/credentials-modal.js';
import { parseReviewId } from '../views/review.js';
import type { ListingFacts, ShownSecret } from '../views/listing.js';
import { memberOf, requireMember, serverFor } from './access.js';
import type { DashboardDeps } from './deps.js';
import { html, type Html } from './html.js';
import type { ServerPageId } from './nav.js';
import { deliveriesPage } from './pages/deliveries.js';
import { pagePath, PAGES, type PagePath } from './pages/form.js';
import { LISTING_ACTIONS, LISTING_FIELDS, listingsPage, type PendingList } from './pages/listings.js';
import {
  INBOX_PAGE_SIZE,
  REPLY_FIELDS,
  reviewsPage,
  type InboxReview,
  type ReviewsPageInput,
} from './pages/reviews.js';
import { statsPage } from './pages/stats.js';
import { formOf, type Form } from './form-body.js';
import { plainText } from './page-text.js';
import { sendPage } from './send-page.js';
import type { Sessions } from './session.js';

type GuildParams = { Params: { guildId: string } };

/** What a change redirects back with (`?done=`): the notice the page then shows once. */
const DONE = {
  replied: 'dashboard.pages.reviews.replied',
  saved: 'dashboard.pages.listings.saved',
  credentials: 'setup.credentials.saved.title',
} as const satisfies Record<string, MessageKey>;
type Done = keyof typeof DONE;

/**
 * What a page says above its body: a change that went through, or one refused (what to fix; nothing
 * changed), or one the service did not take (in the words a member reads in Discord).
 */
type Notice = { done: string } | { refused: UserFacingError } | { failed: UserMessage };

/** Not set up: where it is set up from here, in the member's language (the bot's refusal names the command only). */
const notSetUp = (request: FastifyRequest) => {
  const { t } = translatorFor(memberOf(request).locale);
  return new UserFacingError('refusal.notSetUp', {
    setup: t('dashboard.pages.setUpWhere', { page: t('dashboard.nav.listings') }),
  });
};

/** `changing`: the page answers a change asked for (a POST); a page only read changed nothing to begin with. */
function noticeHtml(notice: Notice | undefined, { t }: Translator, changing: boolean): Html | null {
  if (!notice) return null;
  if ('done' in notice) return html`<p class="notice" role="status">✔ ${notice.done}</p>`;
  const { title, description } =
    'failed' in notice
      ? notice.failed
      : {
          title: t(`${notice.refused.key}.title` as MessageKey),
          description: t(`${notice.refused.key}.text` as MessageKey, notice.refused.vars),
        };
  // Only a refusal is sure to have changed nothing: a failed post may have reached the service.
  const nothingChanged = changing && 'refused' in notice ? t('dashboard.pages.notSaved') : null;
  return html`<div class="warning" role="alert">
    <p><strong>${title}</strong> ${nothingChanged}</p>
    <p>${description}</p>
  </div>`;
}

/**
 * The records pages of a server: credentials and listings (reveal, rotate), the review inbox with its
 * reply form, the delivery log and the stats with their picture. Reads come from the same functions
 * /setup status, /setup listing and /stats read; changes go through the same apply functions and the
 * one reply path as the commands and the Reply button, with the member as a dashboard actor.
 */
export function recordsRoutes(app: FastifyInstance, deps: DashboardDeps, sessions: Sessions): void {
  const { view, base } = deps;
  const signedIn = { preHandler: requireMember(sessions) };

  const show = (
    request: FastifyRequest,
    reply: FastifyReply,
    guild: Guild,
    current: ServerPageId,
    body: Html,
    notice?: Notice,
    status = 200,
  ) => {
    const i18n = translatorFor(memberOf(request).locale);
    const server = { id: guild.id, name: guild.name, current };
    const noticed = noticeHtml(notice, i18n, request.method !== 'GET');
    return sendPage(request, reply, sessions, { i18n, body: html`${noticed}${body}`, server, status });
  };
  /** The notice a redirect after a change asked for, if it named one. */
  const doneOf = (request: FastifyRequest, i18n: Translator): Notice | undefined => {
    const done = (request.query as { done?: string } | undefined)?.done;
    return done !== undefined && Object.hasOwn(DONE, done) ? { done: i18n.t(DONE[done as Done]) } : undefined;
  };
  const backTo = (reply: FastifyReply, guild: Guild, to: PagePath, done: Done) =>
    reply.code(303).redirect(`${pagePath(guild.id, to)}?done=${done}`);
  const actorOf = (request: FastifyRequest): Actor => {
    const member = memberOf(request);
    return { userId: member.id, name: member.name, via: 'dashboard', locale: member.locale };
  };
  const targetOf = (guild: Guild): ChangeTarget => ({ guildId: guild.id, guild });
  /** The page's guild, or the 403/404 page sent (undefined). */
  const guildOf = (request: FastifyRequest<GuildParams>, reply: FastifyReply) =>
    serverFor(request, reply, view, request.params.guildId);

  // Credentials and listings.
  const listings = async (guild: Guild, i18n: Translator): Promise<ListingFacts[] | UserFacingError> => {
    try {
      return [await webhookFacts(base, guild.id, i18n), ...listingsFacts(base, guild.id, i18n)];
    } catch (error) {
      if (error instanceof UserFacingError) return error;
      throw error;
    }
  };
  const showListings = async (
    request: FastifyRequest,
    reply: FastifyReply,
    guild: Guild,
    notice?: Notice,
    shown?: { site: string; secret: ShownSecret; address?: string },
    status = 200,
    pending?: PendingList,
  ) => {
    const i18n = translatorFor(memberOf(request).locale);
    const facts = await listings(guild, i18n);
    // Receiving off (no WEBHOOK_PORT): no list to show, and the page says why; the credentials still are.
    const off = facts instanceof UserFacingError;
    const shownFacts = off ? [] : facts.map((f) => (shown && f.site === shown.site ? { ...f, ...shown } : f));
    const listed = new Set([...shownFacts.map((f) => f.site), pending?.site]);
    const addable = SITE_IDS.filter(isAdaptedSiteId)
      .filter((site) => !listed.has(site))
      .map((site) => ({ site, name: SITE_FACTS[site].name }));
    // A page with a whole secret is kept by no cache and no history.
    if (shown) reply.header('cache-control', 'no-store');
    const body = listingsPage({
      guildId: guild.id,
      csrf: sessions.csrf(request),
      listings: shownFacts,
      credentials: credentialsShown(base, guild.id),
      ...(off ? {} : { addable, addressProblem: publicUrlMissing(base, i18n) }),
      ...(pending ? { pending } : {}),
      i18n,
    });
    notice ??= off ? { refused: facts } : undefined;
    return show(request, reply, guild, 'listings', body, notice, status);
  };

  app.get<GuildParams & { Querystring: { done?: string } }>(
    '/servers/:guildId/listings',
    signedIn,
    async (request, reply) => {
      const guild = await guildOf(request, reply);
      if (!guild) return reply;
      await deps.refresh(guild.id);
      return showListings(request, reply, guild, doneOf(request, translatorFor(memberOf(request).locale)));
    },
  );

  app.post<GuildParams>('/servers/:guildId/listings', async (request, reply) => {
    const guild = await guildOf(request, reply);
    if (!guild) return reply;
    const i18n = translatorFor(memberOf(request).locale);
    const { t } = i18n;
    const form = formOf(request);
    const site = String(form[LISTING_FIELDS.site] ?? '');
    const action = form[LISTING_FIELDS.action];
    const target = targetOf(guild);
    const actor = actorOf(request);
    try {
      if (action === LISTING_ACTIONS.reveal) {
        const secret = await revealSecret(base, target, { site }, actor);
        return await showListings(
          request,
          reply,
          guild,
          { done: t('dashboard.pages.listings.revealed') },
          {
            site,
            secret: { whole: secret },
          },
        );
      }
      if (action === LISTING_ACTIONS.credentials) {
        const input = {
          apiKey: form[CredentialsField.apiKey],
          appId: form[CredentialsField.appId],
        };
        await applyCredentials(base, target, input, actor);
        return backTo(reply, guild, PAGES.listings, 'credentials');
      }
      if (action === LISTING_ACTIONS.add) return await addList(request, reply, guild, form);
      if (action !== LISTING_ACTIONS.rotate) throw new UserFacingError('refusal.listingUnknownSite');
      const made = { done: t('dashboard.pages.listings.made') };
      if (site === 'guilds') {
        const { token } = await applyWebhook(base, target, { rotate: true }, actor);
        return await showListings(request, reply, guild, made, { site, secret: token });
      }
      // A list whose site makes the secret (Top.gg) takes the one pasted; for the others the bot makes one.
      if (isAdaptedSiteId(site) && SITE_FACTS[site].secretFrom === 'site') {
        const pasted = form[LISTING_FIELDS.secret];
        await applyListingSecret(base, target, { site, secret: pasted }, actor);
        return backTo(reply, guild, PAGES.listings, 'saved');
      }
      const added = await applyListingAdd(base, target, { site, rotate: true }, actor);
      // One server from .env: its lists' secrets are the host's to change, and this says where.
      if ('environment' in added) {
        const { key, vars } = added.environment;
        return await showListings(request, reply, guild, { done: i18n.t(`${key}.text`, vars(i18n)) });
      }
      const { secret, address } = added.listing;
      return await showListings(request, reply, guild, made, { site, secret, address });
    } catch (error) {
      if (!(error instanceof UserFacingError)) throw error;
      return showListings(request, reply, guild, { refused: error }, undefined, 400);
    }
  });

  /** The add form: `/setup listing add site: vote-hours:`, answered on the page as the command answers. */
  const addList = async (request: FastifyRequest, reply: FastifyReply, guild: Guild, form: Form) => {
    const i18n = translatorFor(memberOf(request).locale);
    const site = String(form[LISTING_FIELDS.site] ?? '');
    const hours = String(form[LISTING_FIELDS.voteHours] ?? '').trim();
    const input = { site, ...(hours === '' ? {} : { voteHours: Number(hours) }) };
    const added = await applyListingAdd(base, targetOf(guild), input, actorOf(request));
    if ('environment' in added) {
      const { key, vars } = added.environment;
      return showListings(request, reply, guild, { done: i18n.t(`${key}.text`, vars(i18n)) });
    }
    const { secret, address } = added.listing;
    if ('none' in secret) {
      // The site makes the secret (Top.gg): nothing is kept until it is pasted into the card this adds.
      const steps = plainText(i18n.t(`setup.listing.steps.${added.listing.site}`));
      const pending = { site, name: SITE_FACTS[added.listing.site].name, address, steps };
      return showListings(request, reply, guild, undefined, undefined, 200, pending);
    }
    const made = { done: i18n.t('dashboard.pages.listings.made') };
    return showListings(request, reply, guild, made, { site, secret, address });
  };

  // The review inbox.
  const inbox = async (guild: Guild, number: number): Promise<{ reviews: InboxReview[]; total: number }> => {
    const found = await deps.unanswered(guild.id, INBOX_PAGE_SIZE, (number - 1) * INBOX_PAGE_SIZE);
    // A name the bot has not cached is asked of its view (a page is a handful of reviews); a list's
    // delivery's name only when Discord has none; one who left the server shows as their id.
    const cached = (await deps.context(guild.id))?.names;
    const names = await Promise.all(
      found.reviews.map(async ({ authorId }) => {
        const known = cached?.get(authorId, 'discord');
        if (known !== undefined) return known;
        const member = await deps.view.member(guild, authorId).catch(() => undefined);
        return member?.displayName ?? cached?.get(authorId, 'delivery');
      }),
    );
    const reviews = found.reviews.map((review, index) => ({
      reviewId: review.reviewId,
      authorId: review.authorId,
      authorName: names[index],
      rating: review.rating,
      text: review.content,
      at: review.receivedAt,
      site: listReviewOrigin(review.reviewId, guild.id)?.name,
    }));
    return { reviews, total: found.total };
  };
  const showInbox = async (
    request: FastifyRequest,
    reply: FastifyReply,
    guild: Guild,
    number: number,
    notice?: Notice,
    status = 200,
    kept?: ReviewsPageInput['kept'],
  ) => {
    const i18n = translatorFor(memberOf(request).locale);
    const found = await inbox(guild, number);
    const csrf = sessions.csrf(request);
    const body = reviewsPage({ guildId: guild.id, csrf, i18n, ...found, page: number, kept });
    return show(request, reply, guild, 'reviews', body, notice, status);
  };

  app.get<GuildParams & { Querystring: { page?: string; done?: string } }>(
    '/servers/:guildId/reviews',
    signedIn,
    async (request, reply) => {
      const guild = await guildOf(request, reply);
      if (!guild) return reply;
      const number = inboxPage(request.query.page);
      return showInbox(request, reply, guild, number, doneOf(request, translatorFor(memberOf(request).locale)));
    },
  );

  app.post<GuildParams>('/servers/:guildId/reviews', async (request, reply) => {
    const guild = await guildOf(request, reply);
    if (!guild) return reply;
    const form = formOf(request);
    const content = form[REPLY_FIELDS.reply];
    const text = typeof content === 'string' ? content : '';
    const pinned = form[REPLY_FIELDS.pinned] === 'on';
    try {
      const reviewId = parseReviewId(String(form[REPLY_FIELDS.review] ?? ''));
      const review = reviewId === null ? undefined : await deps.review(guild.id, reviewId);
      // A list's review is answered on its site; the inbox offers no form for it, so this was forged or stale.
      if (!review || review.answer !== null || listReviewOrigin(review.reviewId, guild.id))
        throw new UserFacingError('refusal.reviewGone');
      const ctx = await deps.context(guild.id);
      if (!ctx) throw notSetUp(request);
      await postReviewReply(
        ctx,
        { reviewId: review.reviewId, content: text, pinned, authorId: review.authorId },
        actorOf(request),
        { poster: discordPoster(guild.client.rest), serverLocale: guild.preferredLocale },
      );
      return backTo(reply, guild, PAGES.reviews, 'replied');
    } catch (error) {
      // The page the form was on, with what was typed back in it: a refusal must not cost the text.
      const kept = { reviewId: String(form[REPLY_FIELDS.review] ?? ''), text, pinned };
      const page = inboxPage(form[REPLY_FIELDS.page]);
      if (error instanceof UserFacingError)
        return showInbox(request, reply, guild, page, { refused: error }, 400, kept);
      // The service down or refusing: said as the Reply button says it; the bot's own faults stay errors.
      const i18n = translatorFor(memberOf(request).locale);
      const outcome = errorOutcome(error, i18n, secretValues(base.config));
      if (outcome.outcome === 'error') throw error;
      deps.logger[outcome.logLevel](
        { err: error, guildId: guild.id, reason: outcome.reason },
        'dashboard reply not posted',
      );
      // 400 when the service refused what was written; 502 when it failed, or may have taken it.
      const status = error instanceof ReplyRefusedError || error instanceof InvalidInputError ? 400 : 502;
      return showInbox(request, reply, guild, page, { failed: outcome.message }, status, kept);
    }
  });

  // The delivery log.
  app.get<GuildParams>('/servers/:guildId/deliveries', signedIn, async (request, reply) => {
    const guild = await guildOf(request, reply);
    if (!guild) return reply;
    const i18n = translatorFor(memberOf(request).locale);
    const lines = await base.setup.recentDeliveries(guild.id).catch((err: unknown) => {
      deps.logger.warn({ err, guildId: guild.id }, 'could not read the delivery log for the dashboard');
      return 'unreadable' as const;
    });
    // A wrong token is fixed on the credentials page here, named in the member's words.
    const fixes = deliveryFixes(lines, i18n, i18n.t('dashboard.nav.listings'), environmentSites(base, guild.id));
    const body = deliveriesPage({ lines, fixes, listName, i18n });
    return show(request, reply, guild, 'deliveries', body);
  });

  // The stats: the numbers /stats reads, as tables, and the same picture.
  const statsOf = async (guild: Guild) => {
    const ctx = await deps.context(guild.id);
    if (!ctx) return undefined;
    const [data, since] = await Promise.all([
      readStats(ctx.stats, ctx.now(), STATS_DEFAULT_DAYS),
      ctx.ledger.countingSince(),
    ]);
    return { data, countingSince: new Date(since) };
  };

  app.get<GuildParams>('/servers/:guildId/stats', signedIn, async (request, reply) => {
    const guild = await guildOf(request, reply);
    if (!guild) return reply;
    const i18n = translatorFor(memberOf(request).locale);
    const stats = await statsOf(guild);
    if (!stats) return show(request, reply, guild, 'stats', html``, { refused: notSetUp(request) });
    return show(request, reply, guild, 'stats', statsPage({ guildId: guild.id, ...stats, i18n }));
  });

  app.get<GuildParams>('/servers/:guildId/stats.png', signedIn, async (request, reply) => {
    const guild = await guildOf(request, reply);
    if (!guild) return reply;
    const stats = await statsOf(guild);
    if (!stats) return reply.code(404).send();
    // The picture is the server's, as /stats draws it: in the server's language.
    const png = await renderStats(stats.data, translatorFor(guild.preferredLocale));
    return reply.type('image/png').header('cache-control', 'private, max-age=60').send(png);
  });
}

/** An inbox page number from a query or a form: a whole number from 1 to 10,000, else the first page. */
function inboxPage(value: unknown): number {
  const asked = Number(typeof value === 'string' ? value : '1');
  return Number.isInteger(asked) && asked >= 1 && asked <= 10_000 ? asked : 1;
}
