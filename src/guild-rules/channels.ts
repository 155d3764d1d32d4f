import type { Config } from '../config/bot.js';
import type { PermissionName } from './channel-permissions.js';

export interface ChannelToCheck {
  /** What the channel is for, as the doctor's line names it. */
  label: string;
  /** The setting that holds its id, named in the fix. */
  setting: string;
  id: string | undefined;
  needs: readonly PermissionName[];
}

/** What the bot needs in a channel it posts embeds in. */
export const POSTS: readonly PermissionName[] = ['ViewChannel', 'SendMessages', 'EmbedLinks'];

/**
 * Every channel the bot posts in, one line each: a feature that posts somewhere adds its channel
 * here and the doctor checks it like the others.
 */
export function channelsToCheck(config: Config): ChannelToCheck[] {
  return [
    { label: 'audit channel', setting: 'REVIEW_LOG_CHANNEL_ID', id: config.reviewLogChannelId, needs: POSTS },
    { label: 'review feed', setting: 'REVIEW_CHANNEL_ID', id: config.reviewChannelId, needs: POSTS },
    { label: 'vote announcements', setting: 'VOTE_CHANNEL_ID', id: config.voteChannelId, needs: POSTS },
    { label: 'reminder channel', setting: 'REMINDER_CHANNEL_ID', id: config.reminderChannelId, needs: POSTS },
  ];
}
