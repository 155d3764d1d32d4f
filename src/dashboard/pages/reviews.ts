import { REPLY_MAX_LENGTH, REPLY_MIN_LENGTH } from '../../api/index.js';
import type { Translator } from '../../i18n/index.js';
import { stars } from '../../views/format.js';
import { html, type Html } from '../html.js';
import { moment, PAGES, postForm, textarea, type FormTarget } from './form.js';

/**
 * The reply form's fields: which review (its id, as the Reply button carries it), the text, whether it
 * is pinned, and the inbox page it was on (a refusal shows that page again, the text kept).
 */
export const REPLY_FIELDS = { review: 'review', reply: 'reply', pinned: 'pinned', page: 'page' } as const;

/** How many reviews one page of the inbox shows. */
export const INBOX_PAGE_SIZE = 20;

/** A review waiting for a reply, as the inbox reads it from the store. */
export interface InboxReview {
  reviewId: string;
  authorId: string;
  /** The reviewer's name as Discord or the list gave it; undefined: the id shows. */
  authorName: string | undefined;
  /** 1 to 5; null for a list's review that came without one. */
  rating: number | null;
  text: string;
  /** When it was written (ms). */
  at: number;
  /** Another list's name for a review from it: it is answered on that site, not here. */
  site?: string;
}

export interface ReviewsPageInput extends FormTarget {
  /** Unanswered reviews, oldest first, as `/reviews pending` lists them: one page of them. */
  reviews: readonly InboxReview[];
  /** How many wait in all, and which page of INBOX_PAGE_SIZE this is (from 1); left out: one page. */
  total?: number;
  page?: number;
  i18n: Translator;
  /** A reply that was refused, back in its review's form so nothing typed is lost. */
  kept?: { reviewId: string; text: string; pinned: boolean };
}

/** The review inbox: each unanswered review, every text of it escaped, with a reply form. */
export function reviewsPage(input: ReviewsPageInput): Html {
  const { t } = input.i18n;
  const items =
    input.reviews.length === 0
      ? html`<p>${t('inbox.empty')}</p>`
      : html`<p>${t('dashboard.reviews.count', { count: input.total ?? input.reviews.length })}</p>
          ${input.reviews.map((review) => reviewCard(review, input))}`;
  return html`<section class="reviews">
    ${items} ${pager(input)}
  </section>`;
}

function pager({ total, page = 1, i18n: { t } }: ReviewsPageInput): Html | null {
  const pages = Math.max(1, Math.ceil((total ?? 0) / INBOX_PAGE_SIZE));
  if (pages <= 1) return null;
  return html`<p class="pager">
    ${page > 1 ? html`<a href="?page=${page - 1}">${t('dashboard.reviews.previous')}</a>` : null}
    ${t('dashboard.reviews.page', { page, pages })}
    ${page < pages ? html`<a href="?page=${page + 1}">${t('dashboard.reviews.next')}</a>` : null}
  </p>`;
}

function reviewCard(review: InboxReview, input: ReviewsPageInput): Html {
  const { t } = input.i18n;
  const id = `reply-${review.reviewId.replace(/[^\w-]/g, '_')}`;
  const kept = input.kept?.reviewId === review.reviewId ? input.kept : undefined;
  const reply =
    review.site === undefined
      ? postForm(
          input,
          PAGES.reviews,
          html`<input type="hidden" name="${REPLY_FIELDS.review}" value="${review.reviewId}" />
            <input type="hidden" name="${REPLY_FIELDS.page}" value="${input.page ?? 1}" />
            <label for="${id}">${t('dashboard.pages.reviews.reply')}</label>
            ${textarea({ id, name: REPLY_FIELDS.reply, rows: 3, minlength: REPLY_MIN_LENGTH, maxlength: REPLY_MAX_LENGTH, required: true }, kept?.text ?? '')}
            <label class="check"
              ><input type="checkbox" name="${REPLY_FIELDS.pinned}" value="on"${kept?.pinned ? html` checked` : null} />
              ${t('dashboard.pages.reviews.pinned')}</label
            >
            <button type="submit">${t('dashboard.pages.reviews.send')}</button>`,
        )
      : html`<p class="note">${t('dashboard.pages.reviews.onSite', { site: review.site })}</p>`;
  return html`<article class="card review">
    <h2>${review.authorName ?? t('dashboard.reviews.notMember', { id: review.authorId })}</h2>
    <p class="stars">${review.rating === null ? t('dashboard.reviews.noRating') : stars(review.rating)}</p>
    <p class="when">${moment(review.at, t('common.unknown'))}</p>
    <blockquote>${review.text}</blockquote>
    ${reply}
  </article>`;
}
