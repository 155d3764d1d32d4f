import { EmbedBuilder } from 'discord.js';
import type { VoteStatus } from '../api/index.js';
import type { Translator } from '../i18n/index.js';
import { durationInWords, exactTime, mention, relativeTime, timeAfter } from './format.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';
import { voteLinkRows } from './vote-link.js';

export interface VoteViewInput {
  userId: string;
  /** Whether the member asked about their own vote: the wording speaks to them, or about them. */
  self: boolean;
  status: VoteStatus;
  now: Date;
  /** The guild's voting page; adds a "Vote now" link button to the not-voted view. */
  voteUrl?: string;
  i18n: Translator;
}

function votedEmbed({ userId, self, status, now, i18n }: VoteViewInput): EmbedBuilder {
  const { t } = i18n;
  const member = mention(userId);
  const embed = new EmbedBuilder().setColor(ToneColour.success).setTitle(t('vote.active.title'));
  if (status.remainingMs === null) return embed.setDescription(t('vote.active.unknownEnd', { member }));
  const runsOut = timeAfter(now, Math.max(0, status.remainingMs));
  return embed
    .setDescription(t(self ? 'vote.active.self' : 'vote.active.other', { member }))
    .addFields(
      { name: t('vote.field.runsOut'), value: relativeTime(runsOut), inline: true },
      { name: t('vote.field.exactTime'), value: exactTime(runsOut), inline: true },
      { name: t('vote.field.timeLeft'), value: durationInWords(status.remainingMs, i18n), inline: true },
    );
}

function notVotedEmbed({ userId, self, i18n: { t } }: VoteViewInput, withButton: boolean): EmbedBuilder {
  const how = self
    ? t(withButton ? 'vote.none.selfWithButton' : 'vote.none.self')
    : t(withButton ? 'vote.none.otherWithButton' : 'vote.none.other');
  return new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle(t('vote.none.title'))
    .setDescription(`${t('vote.none.text', { member: mention(userId) })}\n${how}`);
}

/** A member's vote: when it runs out, or how to vote. */
export function voteView(input: VoteViewInput): MessageView {
  if (input.status.voted) return messageView(votedEmbed(input));
  const rows = voteLinkRows(input.voteUrl, input.i18n);
  return messageView(notVotedEmbed(input, rows.length > 0), rows);
}
