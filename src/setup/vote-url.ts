import { UserFacingError } from '../bot/user-error.js';
import { BUTTON_URL_MAX } from '../core/discord-limits.js';
import { changed, changeResult, type ApplyChange } from './change.js';
import { refuseEnvironmentSetting } from './manage-server.js';

/**
 * The Vote now link as it will be stored, or null: https only (members are sent there from a
 * button), with a host, no credentials in it, and short enough for a link button.
 */
export function parseVoteUrl(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed.length > BUTTON_URL_MAX || /\s/.test(trimmed)) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.hostname === '' || url.username !== '' || url.password !== '') return null;
  return url.href.length <= BUTTON_URL_MAX ? url.href : null;
}

export interface VoteUrlInput {
  url: string;
}

/** `/setup vote-url url:…` */
export const applyVoteUrl: ApplyChange<VoteUrlInput> = async (ctx, target, input, actor) => {
  refuseEnvironmentSetting(ctx.servers, target.guildId, 'voteUrl');
  const url = parseVoteUrl(input.url);
  if (!url) throw new UserFacingError('refusal.badVoteUrl', { example: 'https://guilds.me/server/…' });
  await ctx.setup.changes.setSettings(target.guildId, { voteUrl: url });
  const vars = () => ({ url });
  return changed(ctx, target, actor, changeResult('setup.voteUrl.set', vars));
};
