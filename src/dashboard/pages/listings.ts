import type { Translator } from '../../i18n/index.js';
import type { CredentialsShown } from '../../setup/credentials.js';
import { CredentialsField } from '../../views/credentials-modal.js';
import type { ListingFacts } from '../../views/listing.js';
import { LISTING_VOTE_HOURS_MAX } from '../../lists/index.js';
import { html, type Html } from '../html.js';
import { moment, PAGES, postForm, problemList, type FormTarget } from './form.js';

/** The fields of the listings page's forms: which list, what to do, and (for a list whose site makes it) the new secret. */
export const LISTING_FIELDS = {
  site: 'site',
  action: 'action',
  secret: 'secret',
  voteHours: 'vote_hours',
  apiToken: 'api_token',
} as const;
/**
 * `reveal` shows the whole secret once (audited); `rotate` makes a new one, or keeps the one pasted in `secret`;
 * `credentials` saves the service's API key and app id (the fields of /setup credentials' form); `add` adds a list
 * as `/setup listing add site: vote-hours:` does; `apiToken` keeps Top.gg's API token (`/setup listing add api-token:`).
 */
export const LISTING_ACTIONS = {
  reveal: 'reveal',
  rotate: 'rotate',
  credentials: 'credentials',
  add: 'add',
  apiToken: 'api_token',
} as const;

/** A list the server is not on yet, offered by the add form. */
interface AddableList {
  site: string;
  name: string;
}

/** A list added whose site makes the secret (Top.gg): its address and steps, and the form to paste the secret. */
export interface PendingList extends AddableList {
  address: string;
  steps: string;
}

export interface ListingsPageInput extends FormTarget {
  /** Guilds (the webhook and its token) first, then each list, as `/setup listing list` reads them. */
  listings: readonly ListingFacts[];
  /** The service credentials, shown first; left out: no such card. */
  credentials?: CredentialsShown;
  /** The lists the server could add; left out: no add form (receiving is off). */
  addable?: readonly AddableList[];
  /** Shown after the lists: one just added that waits for its secret. */
  pending?: PendingList;
  /** Set when the addresses are paths only (no WEBHOOK_PUBLIC_URL): what to set, beside each address. */
  addressProblem?: string | undefined;
  /** Vote forwarding's card (pages/forwards.ts), after the lists. */
  forwards?: Html;
  i18n: Translator;
}

/** Credentials and listings: each list's address, its secret's end with reveal and rotate, its last delivery and test. */
export function listingsPage(input: ListingsPageInput): Html {
  const { listings, i18n } = input;
  const { t } = i18n;
  const items =
    listings.length === 0 ? html`<p>${t('dashboard.pages.listings.none')}</p>` : listings.map((l) => listing(l, input));
  return html`<section class="listings">
    ${input.credentials ? credentialsCard(input.credentials, input) : null} ${items}
    ${input.pending ? pendingCard(input.pending, input) : null} ${input.addable ? addCard(input.addable, input) : null}
    ${input.forwards ?? null}
  </section>`;
}

/** `/setup listing add` as a form: the list, and its vote length where the site does not send one. */
function addCard(addable: readonly AddableList[], input: ListingsPageInput): Html {
  const { t } = input.i18n;
  if (addable.length === 0)
    return html`<article class="card add-listing">
      <h2>${t('dashboard.pages.listings.addTitle')}</h2>
      <p>${t('dashboard.pages.listings.allAdded')}</p>
    </article>`;
  const options = addable.map((list) => html`<option value="${list.site}">${list.name}</option>`);
  const body = html`<input type="hidden" name="${LISTING_FIELDS.action}" value="${LISTING_ACTIONS.add}" />
    <label>${t('dashboard.pages.listings.addSite')} <select name="${LISTING_FIELDS.site}" required>${options}</select></label>
    <label
      >${t('dashboard.pages.listings.addHours')}
      <input type="number" name="${LISTING_FIELDS.voteHours}" min="1" max="${LISTING_VOTE_HOURS_MAX}" step="1" />
    </label>
    <p class="note">${t('dashboard.pages.listings.addNote')}</p>
    <button type="submit">${t('dashboard.pages.add')}</button>`;
  return html`<article class="card add-listing">
    <h2>${t('dashboard.pages.listings.addTitle')}</h2>
    ${postForm(input, PAGES.listings, body)}
  </article>`;
}

/** A list whose site makes the secret, just added: where to paste the address, and the secret's field. */
function pendingCard(pending: PendingList, input: ListingsPageInput): Html {
  const { t } = input.i18n;
  const body = html`${fields(pending.site, LISTING_ACTIONS.rotate)}
    <label
      >${t('setup.listing.secretLabel')}
      <input type="password" name="${LISTING_FIELDS.secret}" required autocomplete="off" />
    </label>
    <button type="submit">${t('dashboard.pages.save')}</button>`;
  return html`<article class="card listing pending">
    <h2>${pending.name}</h2>
    <dl>
      <dt>${t('setup.webhook.url')}</dt>
      <dd>${address(pending.address, input)}</dd>
    </dl>
    <p>${pending.steps}</p>
    ${postForm(input, PAGES.listings, body)}
  </article>`;
}

/** The service's API key and app id by their ends, and a form to replace both (checked with the service first). */
function credentialsCard(shown: CredentialsShown, input: ListingsPageInput): Html {
  const { t } = input.i18n;
  if ('environment' in shown)
    return html`<article class="card credentials">
      <h2>${t('setup.credentials.modalTitle')}</h2>
      <p>${t('setup.listing.fromEnvironment', { variable: shown.environment })}</p>
    </article>`;
  const field = (name: string, label: string) =>
    html`<label>${label} <input type="password" name="${name}" required autocomplete="off" /></label>`;
  const body = html`<input type="hidden" name="${LISTING_FIELDS.action}" value="${LISTING_ACTIONS.credentials}" />
    ${field(CredentialsField.apiKey, t('setup.credentials.apiKey'))}
    ${field(CredentialsField.appId, t('setup.credentials.appId'))}
    <p class="note">${t('dashboard.pages.listings.credentialsNote')}</p>
    <button type="submit">${t('dashboard.pages.save')}</button>`;
  return html`<article class="card credentials">
    <h2>${t('setup.credentials.modalTitle')}</h2>
    ${
      'none' in shown
        ? null
        : html`<dl>
            <dt>${t('setup.credentials.apiKey')}</dt>
            <dd><code>${shown.apiKey}</code></dd>
            <dt>${t('setup.credentials.appId')}</dt>
            <dd><code>${shown.appId}</code></dd>
          </dl>`
    }
    ${postForm(input, PAGES.listings, body)}
  </article>`;
}

function listing(facts: ListingFacts, input: ListingsPageInput): Html {
  const { t } = input.i18n;
  return html`<article class="card listing">
    <h2>${facts.name}</h2>
    <dl>
      <dt>${t('setup.webhook.url')}</dt>
      <dd>${address(facts.address, input)}</dd>
      <dt>${t('setup.listing.secret')}</dt>
      <dd>${secret(facts, input.i18n)}</dd>
      <dt>${t('setup.webhook.lastDelivery')}</dt>
      <dd>${moment(facts.lastDeliveryAt, t('setup.webhook.never'))}</dd>
      <dt>${t('setup.listing.lastTest')}</dt>
      <dd>${moment(facts.lastTestAt, t('setup.listing.noTest'))}</dd>
      <dt>${t('setup.listing.voteLength')}</dt>
      <dd>${facts.voteLength}</dd>
      ${facts.apiToken ? html`<dt>${t('setup.listing.apiToken')}</dt><dd>${apiToken(facts.apiToken, input.i18n)}</dd>` : null}
    </dl>
    ${'end' in facts.secret ? reveal(facts, input) : null}
    ${'environment' in facts.secret ? null : rotate(facts, input)}
    ${facts.apiToken && !('environment' in facts.apiToken) ? apiTokenForm(facts, input) : null}
  </article>`;
}

function apiToken(token: NonNullable<ListingFacts['apiToken']>, { t }: Translator): Html | string {
  if ('end' in token) return html`<code>${token.end}</code>`;
  if ('environment' in token) return t('setup.listing.fromEnvironment', { variable: token.environment });
  return t('setup.listing.apiTokenNone');
}

/** Top.gg's API token, pasted as `/setup listing add site:topgg api-token:` takes it. */
function apiTokenForm({ site }: ListingFacts, input: ListingsPageInput): Html {
  const { t } = input.i18n;
  const body = html`${fields(site, LISTING_ACTIONS.apiToken)}
    <label
      >${t('setup.listing.apiToken')}
      <input type="password" name="${LISTING_FIELDS.apiToken}" required autocomplete="off" />
    </label>
    <button type="submit">${t('dashboard.pages.save')}</button>`;
  return postForm(input, PAGES.listings, body);
}

/** An address whole, or its path with what to set to make it whole: a list cannot post to a path. */
function address(shown: string, input: ListingsPageInput): Html {
  return html`<code>${shown}</code>${input.addressProblem ? problemList([input.addressProblem]) : null}`;
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
