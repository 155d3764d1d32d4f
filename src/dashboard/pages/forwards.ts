import type { Translator } from '../../i18n/index.js';
import { forwardResultText, type ShownDestination } from '../../views/forward.js';
import { html, type Html } from '../html.js';
import { PAGES, postForm, type FormTarget } from './form.js';

/** The forwarding forms' fields and actions, posted to the listings page beside the lists' own. */
export const FORWARD_FIELDS = { action: 'action', url: 'forward_url' } as const;
export const FORWARD_ACTIONS = { add: 'forward-add', remove: 'forward-remove' } as const;

export interface ForwardsCardInput extends FormTarget {
  /** As `/setup forward list` reads them; one just made carries its whole secret, shown this once. */
  destinations: readonly ShownDestination[];
  /** Single-server mode: FORWARD_URLS sets them, so no add or remove form. */
  fromEnvironment: boolean;
  i18n: Translator;
}

/** `/setup forward` on the listings page: each destination with its last result and a remove button, and the add form. */
export function forwardsCard(input: ForwardsCardInput): Html {
  const { t } = input.i18n;
  const add = html`<input type="hidden" name="${FORWARD_FIELDS.action}" value="${FORWARD_ACTIONS.add}" />
    <label
      >${t('dashboard.pages.forward.url')}
      <input type="url" name="${FORWARD_FIELDS.url}" required placeholder="https://" />
    </label>
    <button type="submit">${t('dashboard.pages.add')}</button>`;
  return html`<article class="card forwards">
    <h2>${t('setup.forward.title')}</h2>
    <p class="note">${t('setup.forward.verify')}</p>
    ${input.destinations.map((destination) => destinationItem(destination, input))}
    ${input.fromEnvironment ? null : postForm(input, PAGES.listings, add)}
  </article>`;
}

function destinationItem(destination: ShownDestination, input: ForwardsCardInput): Html {
  const { i18n } = input;
  const { t } = i18n;
  const secret = destination.fromEnvironment
    ? t('setup.forward.fromEnvironment')
    : destination.wholeSecret !== undefined
      ? html`<code class="secret">${destination.wholeSecret}</code>
          <p class="note">${t('setup.listing.onlyOnce')}</p>`
      : html`<code>••••${destination.secretEnd}</code>`;
  const remove = html`<input type="hidden" name="${FORWARD_FIELDS.action}" value="${FORWARD_ACTIONS.remove}" />
    <input type="hidden" name="${FORWARD_FIELDS.url}" value="${destination.url}" />
    <button type="submit">${t('dashboard.pages.forward.remove')}</button>`;
  return html`<dl class="forward">
      <dt>${t('dashboard.pages.forward.url')}</dt>
      <dd><code>${destination.url}</code></dd>
      <dt>${t('setup.listing.secret')}</dt>
      <dd>${secret}</dd>
      <dt>${t('setup.webhook.lastDelivery')}</dt>
      <dd>${forwardResultText(destination, i18n)}</dd>
    </dl>
    ${destination.fromEnvironment ? null : postForm(input, PAGES.listings, remove, 'form inline')}`;
}
