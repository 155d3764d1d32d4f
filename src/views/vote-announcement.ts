import { EmbedBuilder } from 'discord.js';
import type { Translator } from '../i18n/index.js';
import { mentionWithName } from './format.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';

/** Voters per message: 50 lines of ~60 characters stay well inside an embed's 4,096. */
export const VOTERS_PER_ANNOUNCEMENT = 50;

export interface AnnouncedVote {
  userId: string;
  double: boolean;
}

export interface VoteTotals {
  /** The service's total at the last poll plus the votes recorded since; undefined without a poll. */
  total: number | undefined;
  /** Votes recorded this calendar month (UTC), a double vote counting as two. */
  thisMonth: number;
}

/** One message for a batch of voters, so a burst never runs into Discord's per-channel limit. */
export function voteAnnouncementView(
  votes: readonly AnnouncedVote[],
  totals: VoteTotals,
  i18n: Translator,
  names: ReadonlyMap<string, string> = new Map(),
): MessageView {
  const { t } = i18n;
  const lines = votes.map((vote) =>
    t(vote.double ? 'feed.vote.lineDouble' : 'feed.vote.line', {
      member: mentionWithName(vote.userId, names.get(vote.userId)),
    }),
  );
  const footer = [
    totals.total === undefined ? undefined : t('feed.vote.total', { count: totals.total }),
    t('feed.vote.month', { count: totals.thisMonth }),
  ]
    .filter(Boolean)
    .join(' · ');
  const embed = new EmbedBuilder()
    .setColor(ToneColour.success)
    .setTitle(votes.length === 1 ? t('feed.vote.titleOne') : t('feed.vote.titleMany', { count: votes.length }))
    .setDescription(lines.join('\n'))
    .setFooter({ text: footer });
  return messageView(embed);
}
