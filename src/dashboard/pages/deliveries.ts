import type { Translator } from '../../i18n/index.js';
import type { DeliveryRecord } from '../../store/index.js';
import { deliveryEvent, type ListName } from '../../views/delivery-log.js';
import { html, type Html } from '../html.js';
import { moment } from './form.js';

/** A logged event: the list's name, then its kind as code (or in words when the receiver could not read it). */
function eventCell(event: string, i18n: Translator, listName: ListName): Html {
  const { list, kind, unread } = deliveryEvent(event, i18n, listName);
  const shown = unread ? kind : html`<code>${kind}</code>`;
  return html`${list ? `${list} ` : null}${shown}`;
}

const good = (line: DeliveryRecord) => line.outcome === 'stored' || line.outcome === 'duplicate';

export interface DeliveriesPageInput {
  /** Newest first, as `/setup status` reads them; 'unreadable' when the log could not be read. */
  lines: readonly DeliveryRecord[] | 'unreadable';
  /** How to mend what the log shows refused (setup/delivery-fixes.ts), one line each. */
  fixes: readonly string[];
  listName: ListName;
  i18n: Translator;
}

/** The delivery log: the same lines `/setup status` shows (when, event, outcome), as a table. */
export function deliveriesPage({ lines, fixes, listName, i18n }: DeliveriesPageInput): Html {
  const { t } = i18n;
  const title = html`<h2>${t('setup.deliveries.title')}</h2>`;
  if (lines === 'unreadable')
    return html`<section class="deliveries">
      ${title}
      <p class="warning">${t('setup.deliveries.unreadable')}</p>
    </section>`;
  if (lines.length === 0)
    return html`<section class="deliveries">
      ${title}
      <p>${t('setup.deliveries.none')}</p>
    </section>`;
  const rows = lines.map(
    (line) =>
      html`<tr class="${good(line) ? 'good' : 'bad'}">
        <td>${good(line) ? '✔' : '✘'}</td>
        <td>${moment(line.at, t('common.unknown'))}</td>
        <td>${eventCell(line.event, i18n, listName)}</td>
        <td>${t(`setup.delivery.${line.outcome}`)}</td>
      </tr>`,
  );
  return html`<section class="deliveries">
    ${title}
    <table>
      <thead>
        <tr>
          <th></th>
          <th>${t('dashboard.pages.deliveries.when')}</th>
          <th>${t('dashboard.pages.deliveries.event')}</th>
          <th>${t('dashboard.pages.deliveries.outcome')}</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
    ${fixes.map((fix) => html`<p class="warning">${fix}</p>`)}
  </section>`;
}
