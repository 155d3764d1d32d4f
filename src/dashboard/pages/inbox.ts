import type { Translator } from '../../i18n/index.js';
import type { UnansweredPage } from '../../store/index.js';
import { html, type Html } from '../html.js';

export const INBOX_PAGE_SIZE = 20;

/** The reviews no one has answered yet, oldest first, read-only: every text from a member escaped. */
export function inboxBody(
  found: UnansweredPage,
  page: number,
  authorName: (userId: string) => string,
  { t }: Translator,
): Html {
  if (found.total === 0) return html`<p>${t('dashboard.reviews.none')}</p>`;
  const pages = Math.max(1, Math.ceil(found.total / INBOX_PAGE_SIZE));
  return html`<p>${t('dashboard.reviews.count', { count: found.total })}</p>
    <ol class="reviews">
      ${found.reviews.map(
        (review) =>
          html`<li class="review">
            <span class="meta"
              >${review.rating === null ? t('dashboard.reviews.noRating') : '★'.repeat(review.rating)} ·
              ${t('dashboard.reviews.by', { author: authorName(review.authorId) })} ·
              <time datetime="${new Date(review.receivedAt).toISOString()}"
                >${new Date(review.receivedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC</time
              ></span
            >
            <p>${review.content}</p>
          </li>`,
      )}
    </ol>
    ${
      pages > 1
        ? html`<p class="pager">
            ${page > 1 ? html`<a href="?page=${page - 1}">${t('dashboard.reviews.previous')}</a>` : ''}
            ${t('dashboard.reviews.page', { page, pages })}
            ${page < pages ? html`<a href="?page=${page + 1}">${t('dashboard.reviews.next')}</a>` : ''}
          </p>`
        : ''
    }`;
}
