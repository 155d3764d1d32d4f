import type { Config } from '../config/bot.js';
import { SETTING_VARIABLES } from '../config/server-variables.js';
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

type ChannelSetting = 'auditChannelId' | 'reviewChannelId' | 'voteChannelId' | 'reminderChannelId';

/** A channel the bot posts embeds in, named in the fix by the variable that sets it. */
const channel = (label: string, setting: ChannelSetting, { server }: Pick<Config, 'server'>): ChannelToCheck => ({
  label,
  setting: SETTING_VARIABLES[setting],
  id: server[setting],
  needs: POSTS,
});

/**
 * Every channel the bot posts in, one line each: a feature that posts somewhere adds its channel
 * here and the doctor checks it like the others.
 */
export function channelsToCheck(config: Config): ChannelToCheck[] {
  return [
    channel('audit channel', 'auditChannelId', config),
    channel('review feed', 'reviewChannelId', config),
    channel('vote announcements', 'voteChannelId', config),
    channel('reminder channel', 'reminderChannelId', config),
  ];
}
