import { channelMention } from '../core/discord-text.js';
import { EmbedBuilder } from './embed-builder.js';
import type { Translator } from '../i18n/index.js';
import type { ReminderRecord } from '../store/index.js';
import { relativeTime } from './format.js';
import { messageView, type MessageView } from './message.js';
import { ToneColour } from './theme.js';
import { remindCommand } from './vote-reminder.js';

/** What `/remind` tells a member about their reminders. */
export interface RemindState {
  on: boolean;
  /** When the member's running vote ends, as the expiry schedule knows it. */
  voteEndsAt: Date | undefined;
  last: ReminderRecord | undefined;
  /** REMINDER_CHANNEL_ID: where members with closed DMs are mentioned instead. */
  fallbackChannelId: string | undefined;
}

function nextLine({ voteEndsAt }: RemindState, { t }: Translator): string {
  return voteEndsAt === undefined ? t('remind.noVote') : t('remind.next', { when: relativeTime(voteEndsAt) });
}

function deliveryLine({ fallbackChannelId }: RemindState, { t }: Translator): string {
  return fallbackChannelId === undefined
    ? t('remind.openDms')
    : t('remind.fallback', { channel: channelMention(fallbackChannelId) });
}

function lastLine({ last }: RemindState, { t }: Translator): string[] {
  if (last === undefined || last.outcome === 'pending') return [];
  return [t(`remind.last.${last.outcome}`, { when: relativeTime(new Date(last.at)) })];
}

function view(title: string, lines: readonly string[], on: boolean): MessageView {
  const embed = new EmbedBuilder()
    .setColor(on ? ToneColour.success : ToneColour.info)
    .setTitle(title)
    .setDescription(lines.join('\n'));
  return messageView(embed);
}

/** `/remind on`: what happens now, and when. */
export function remindOnView(state: RemindState, i18n: Translator): MessageView {
  const { t } = i18n;
  const stop = t('remind.howToStop', { off: remindCommand(i18n, 'off') });
  return view(
    t('remind.on.title'),
    [t('remind.on.text'), nextLine(state, i18n), deliveryLine(state, i18n), stop],
    true,
  );
}

/** `/remind off`; says so when there was nothing to turn off. */
export function remindOffView(wasOn: boolean, i18n: Translator): MessageView {
  const { t } = i18n;
  const on = remindCommand(i18n, 'on');
  return view(t('remind.off.title'), [t(wasOn ? 'remind.off.text' : 'remind.alreadyOff.text', { on })], false);
}

/** `/remind status`: on or off, the next reminder and how the last one went. */
export function remindStatusView(state: RemindState, i18n: Translator): MessageView {
  const { t } = i18n;
  if (!state.on)
    return view(
      t('remind.status.offTitle'),
      [t('remind.status.offText', { on: remindCommand(i18n, 'on') }), ...lastLine(state, i18n)],
      false,
    );
  const stop = t('remind.howToStop', { off: remindCommand(i18n, 'off') });
  return view(
    t('remind.status.onTitle'),
    [nextLine(state, i18n), ...lastLine(state, i18n), deliveryLine(state, i18n), stop],
    true,
  );
}
