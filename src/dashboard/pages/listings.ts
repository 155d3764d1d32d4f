import type { Translator } from '../../i18n/index.js';
import type { ListingFacts } from '../../views/listing.js';
import { html, type Html } from '../html.js';
import { moment, PAGES, postForm, type FormTarget } from './form.js';

/** The fields of the listings page's forms: which list, what to do, and (for a list whose site makes it) the new secret. */
export const LISTING_FIELDS = { site: 'site', action: 'action', secret: 'secret' } as const;
/** `reveal` shows the whole secret once (audited); `rotate` makes a new one, or keeps the one pasted in `secret`. */
export const LISTING_ACTIONS = { reveal: 'reveal', rotate: 'rotate' } as const;

export interface ListingsPageInput extends FormTarget {
  /** Guilds (the webhook and its token) first, then each list, as `/setup listing list` reads them. */
  listings: readonly ListingFacts[];
  i18n: Translator;
}

/** Credentials and listings: each list's address, its secret's end with reveal and rotate, its last delivery and test. */
export function listingsPage(input: ListingsPageInput): Html {
  const { listings, i18n } = input;
  const { t } = i18n;
  const items =
    listings.length === 0 ? html`<p>${t('dashboard.pages.listings.none')}</p>` : listings.map((l) => listing(l, input));
  return html`<section class="listings">
    <h1>${t('dashboard.pages.listings.title')}</h1>
    ${items}
  </section>`;
}

function listing(facts: ListingFacts, input: ListingsPageInput): Html {
  const { t } = input.i18n;
  return html`<article class="card listing">
    <h2>${facts.name}</h2>
    <dl>
      <dt>${t('setup.webhook.url')}</dt>
      <dd><code>${facts.address}</code></dd>
      <dt>${t('setup.listing.secret')}</dt>
      <dd>${secret(facts, input.i18n)}</dd>
      <dt>${t('setup.webhook.lastDelivery')}</dt>
      <dd>${moment(facts.lastDeliveryAt, t('setup.webhook.never'))}</dd>
      <dt>${t('setup.listing.lastTest')}</dt>
      <dd>${moment(facts.lastTestAt, t('setup.listing.noTest'))}</dd>
      <dt>${t('setup.listing.voteLength')}</dt>
      <dd>${facts.voteLength}</dd>
    </dl>
    ${'end' in facts.secret ? reveal(facts, input) : null}
    ${'environment' in facts.secret ? null : rotate(facts, input)}
  </article>`;
}

function secret({ secret }: ListingFacts, { t }: Translator): Html | string {
  if ('whole' in secret)
    return html`<code class="secret">${secret.whole}</code>
      <p class="note">${t('setup.listing.onlyOnce')}</p>`;
  if ('end' in secret) return html`<code>${secret.end}</code>`;
  if ('environment' in secret) return t('setup.listing.fromEnvironment', { variable: secret.environment });
  return t('dashboard.pages.listings.noSecret');
}

const fields = (site: string, action: string) =>
  html`<input type="hidden" name="${LISTING_FIELDS.site}" value="${site}" />
    <input type="hidden" name="${LISTING_FIELDS.action}" value="${action}" />`;

function reveal({ site }: ListingFacts, input: ListingsPageInput): Html {
  const { t } = input.i18n;
  const body = html`${fields(site, LISTING_ACTIONS.reveal)}
    <button type="submit">${t('dashboard.pages.listings.reveal')}</button>
    <span class="note">${t('dashboard.pages.listings.revealAudited')}</span>`;
  return postForm(input, PAGES.listings, body, 'form inline');
}

/** A list that makes its own secret (Top.gg) takes the new one pasted; for the others the bot makes it. */
function rotate({ site, secretFromSite }: ListingFacts, input: ListingsPageInput): Html {
  const { t } = input.i18n;
  const pasted = secretFromSite
    ? html`<label
        >${t('dashboard.pages.listings.newSecret')}
        <input type="password" name="${LISTING_FIELDS.secret}" required autocomplete="off" />
      </label>`
    : html`<p class="note">${t('dashboard.pages.listings.rotateNote')}</p>`;
  const body = html`${fields(site, LISTING_ACTIONS.rotate)}${pasted}
    <button type="submit">${t('dashboard.pages.listings.rotate')}</button>`;
  return postForm(input, PAGES.listings, body);
}
