import { EmbedBuilder } from './embed-builder.js';
import type { VoteStatus } from '../api/index.js';
import type { Translator } from '../i18n/index.js';
import { durationInWords, exactTime, relativeTime, timeAfter } from './format.js';
import { mention } from '../core/discord-text.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';
import { listLinkRows, voteLinkRows } from './vote-link.js';

export interface VoteViewInput {
  userId: string;
  /** Whether the member asked about their own vote: the wording speaks to them, or about them. */
  self: boolean;
  status: VoteStatus;
  now: Date;
  /** The guild's voting page; adds a "Vote now" link button to the not-voted view. */
  voteUrl?: string;
  /** Vote periods in a row, the current one included; 0 or unknown: not shown. */
  streak?: number;
  /**
   * The server's other lists (Top.gg, …) with the member's running vote on each: a line per list
   * after Guilds' own. Undefined or empty (a server on Guilds alone): the answer is Guilds' only.
   */
  lists?: readonly ListVoteLine[];
  i18n: Translator;
}

/** One list besides Guilds in /vote: the member's running vote there, if any, and its vote page. */
export interface ListVoteLine {
  /** The site's own name, shown as is in every language. */
  name: string;
  running?: { votedAt: Date; endsAt: Date };
  /** The server's vote page on the site, when the site's documentation gives its address. */
  votePage?: string;
}

/** Guilds' line from the service's answer, then each list's from the ledger. */
function listFields({ lists, status, now, i18n: { t } }: VoteViewInput): Array<{ name: string; value: string }> {
  if (!lists || lists.length === 0) return [];
  const guilds = !status.voted
    ? t('vote.list.canVote', { site: 'Guilds' })
    : status.remainingMs === null
      ? t('vote.list.votedNoEnd', { site: 'Guilds' })
      : t('vote.list.runsOut', {
          site: 'Guilds',
          again: relativeTime(timeAfter(now, Math.max(0, status.remainingMs))),
        });
  const others = lists.map(({ name, running }) =>
    running
      ? t('vote.list.voted', { site: name, voted: relativeTime(running.votedAt), again: relativeTime(running.endsAt) })
      : t('vote.list.canVote', { site: name }),
  );
  return [{ name: t('vote.field.lists'), value: [guilds, ...others].join('\n') }];
}

/** The streak as a field, when there is one to show. */
function streakFields({ streak, i18n }: VoteViewInput): Array<{ name: string; value: string; inline: boolean }> {
  if (streak === undefined || streak <= 0) return [];
  return [{ name: i18n.t('vote.field.streak'), value: i18n.t('vote.streak', { count: streak }), inline: true }];
}

// Built from data, not with the setters: each setter runs the builders' validators even when they
// are disabled (a union check that throws and catches an error per call: docs/performance.md,
// "Figures behind the code"). The e2e stand-in checks every payload against Discord's limits.
function votedEmbed(input: VoteViewInput): EmbedBuilder {
  const { userId, self, status, now, i18n } = input;
  const { t } = i18n;
  const member = mention(userId);
  const base = { color: ToneColour.success, title: t('vote.active.title') };
  if (status.remainingMs === null)
    return new EmbedBuilder({
      ...base,
      description: t('vote.active.unknownEnd', { member }),
      fields: [...streakFields(input), ...listFields(input)],
    });
  const runsOut = timeAfter(now, Math.max(0, status.remainingMs));
  return new EmbedBuilder({
    ...base,
    description: t(self ? 'vote.active.self' : 'vote.active.other', { member }),
    fields: [
      { name: t('vote.field.runsOut'), value: relativeTime(runsOut), inline: true },
      { name: t('vote.field.exactTime'), value: exactTime(runsOut), inline: true },
      { name: t('vote.field.timeLeft'), value: durationInWords(status.remainingMs, i18n), inline: true },
      ...streakFields(input),
      ...listFields(input),
    ],
  });
}

function notVotedEmbed(input: VoteViewInput, withButton: boolean): EmbedBuilder {
  const {
    userId,
    self,
    i18n: { t },
  } = input;
  const how = self
    ? t(withButton ? 'vote.none.selfWithButton' : 'vote.none.self')
    : t(withButton ? 'vote.none.otherWithButton' : 'vote.none.other');
  return new EmbedBuilder({
    color: ToneColour.info,
    title: t('vote.none.title'),
    description: `${t('vote.none.text', { member: mention(userId) })}\n${how}`,
    fields: [...streakFields(input), ...listFields(input)],
  });
}

/** A member's vote: when it runs out, or how to vote. */
export function voteView(input: VoteViewInput): MessageView {
  const lists = listLinkRows(input.lists ?? [], input.i18n);
  if (input.status.voted) return messageView(votedEmbed(input), lists);
  const rows = voteLinkRows(input.voteUrl, input.i18n);
  return messageView(notVotedEmbed(input, rows.length > 0), [...rows, ...lists]);
}
