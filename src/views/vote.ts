import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder } from 'discord.js';
import type { VoteStatus } from '../api/types.js';
import { durationInWords, exactTime, mention, relativeTime, timeAfter } from './format.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';

export interface VoteViewInput {
  userId: string;
  /** Whether the member asked about their own vote: the wording speaks to them, or about them. */
  self: boolean;
  status: VoteStatus;
  now: Date;
  /** The guild's voting page; adds a "Vote now" link button to the not-voted view. */
  voteUrl?: string;
}

/** Discord accepts link buttons with http(s) URLs of at most 512 characters. */
function isLinkUrl(url: string): boolean {
  if (url.length > 512) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

function votedEmbed(userId: string, self: boolean, remainingMs: number | null, now: Date): EmbedBuilder {
  const embed = new EmbedBuilder().setColor(ToneColour.success).setTitle('Vote active');
  if (remainingMs === null) {
    return embed.setDescription(`${mention(userId)} has an active vote. The service did not say when it runs out.`);
  }
  const runsOut = timeAfter(now, Math.max(0, remainingMs));
  return embed
    .setDescription(self ? `${mention(userId)}, you have voted. Thank you!` : `${mention(userId)} has voted.`)
    .addFields(
      { name: 'Runs out', value: relativeTime(runsOut), inline: true },
      { name: 'Exact time', value: exactTime(runsOut), inline: true },
      { name: 'Time left', value: durationInWords(remainingMs), inline: true },
    );
}

function notVotedEmbed(userId: string, self: boolean, withButton: boolean): EmbedBuilder {
  const where = withButton
    ? 'the button below leads to the server’s listing page'
    : 'votes are cast on the server’s listing page';
  const how = self
    ? withButton
      ? 'Use the button below to vote on the server’s listing page, then check again here.'
      : 'Vote for the server on its listing page, then check again here.'
    : `They can vote any time: ${where}.`;
  return new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle('No active vote')
    .setDescription(`${mention(userId)} has no active vote right now.\n${how}`);
}

/** A member's vote: when it runs out, or how to vote. */
export function voteView({ userId, self, status, now, voteUrl }: VoteViewInput): MessageView {
  if (status.voted) return messageView(votedEmbed(userId, self, status.remainingMs, now));
  const link = voteUrl !== undefined && isLinkUrl(voteUrl) ? voteUrl : undefined;
  const embed = notVotedEmbed(userId, self, link !== undefined);
  if (link === undefined) return messageView(embed);
  const button = new ButtonBuilder().setStyle(ButtonStyle.Link).setLabel('Vote now').setURL(link);
  return messageView(embed, [new ActionRowBuilder<ButtonBuilder>().addComponents(button)]);
}
