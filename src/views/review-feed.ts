import type { Translator } from '../i18n/index.js';
import type { FeedPost } from '../store/index.js';
import { exactTime, mention, relativeTime } from './format.js';
import type { MessageView } from './message.js';
import { reviewView } from './review.js';
import { ToneColour } from './theme.js';

/**
 * A review as the feed shows it: the `/review` embed with the same Reply button, titled as new,
 * and once answered, marked so moderators see at a glance that it needs nothing more.
 */
export function reviewFeedView(post: FeedPost, i18n: Translator, authorName?: string): MessageView {
  const { t } = i18n;
  const answered = post.answer !== null;
  const view = reviewView({
    authorId: post.authorId,
    review: {
      id: post.reviewId,
      authorId: post.authorId,
      rating: post.rating,
      content: post.content,
      // A webhook says nothing of likes or replies: a new review has none, an answered one has one.
      likes: 0,
      replies: answered ? 1 : 0,
      createdAt: new Date(post.receivedAt),
    },
    showReplyButton: true,
    i18n,
    authorName,
  });
  const [embed] = view.embeds;
  embed?.setTitle(t(answered ? 'feed.review.answeredTitle' : 'feed.review.title'));
  if (post.answer) {
    const at = new Date(post.answer.at);
    const when = `${relativeTime(at)} (${exactTime(at)})`;
    const value = post.answer.moderatorId
      ? t('feed.review.answeredBy', { moderator: mention(post.answer.moderatorId), when })
      : t('feed.review.answeredAt', { when });
    embed?.setColor(ToneColour.success).addFields({ name: t('feed.review.answered'), value });
  }
  return view;
}
