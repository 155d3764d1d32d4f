import type { ServerSettingsRecord } from '../store/index.js';

/** The settings /setup changes, each with the variable that sets it in single-server mode. */
export const SETTING_VARIABLES = {
  reviewChannelId: 'REVIEW_CHANNEL_ID',
  voteChannelId: 'VOTE_CHANNEL_ID',
  auditChannelId: 'REVIEW_LOG_CHANNEL_ID',
  reminderChannelId: 'REMINDER_CHANNEL_ID',
  voterRoleId: 'VOTER_ROLE_ID',
  moderatorRoleIds: 'MODERATOR_ROLE_IDS',
  voteUrl: 'VOTE_URL',
  announceTemplate: 'ANNOUNCE_TEMPLATE',
  firstVoteTemplate: 'ANNOUNCE_FIRST_VOTE_TEMPLATE',
  announcePing: 'ANNOUNCE_PING_VOTER',
  announceEveryList: 'ANNOUNCE_EVERY_LIST',
  streakGraceHours: 'STREAK_GRACE_HOURS',
} as const satisfies Record<keyof ServerSettingsRecord, string>;

export type SettingName = keyof typeof SETTING_VARIABLES;
