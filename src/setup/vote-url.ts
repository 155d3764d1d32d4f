import type { ChatInputCommandInteraction } from 'discord.js';
import type { BaseContext } from '../runtime/context.js';
import { setupName } from '../bot/command-options.js';
import { UserFacingError } from '../bot/user-error.js';
import { BUTTON_URL_MAX } from '../core/discord-limits.js';
import { translatorFor } from '../i18n/index.js';
import type { MessageView } from '../views/message.js';
import { changeAnswer, changed, changeResult, commandTarget } from './change.js';
import type { ChangeResult, ChangeTarget } from './change.js';
import { refuseEnvironmentSetting } from './manage-server.js';
import { commandActor, type Actor } from '../bot/actor.js';

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
export async function setVoteUrl(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView> {
  const input = { url: interaction.options.getString(setupName('url'), true) };
  const result = await applyVoteUrl(ctx, commandTarget(interaction), input, commandActor(interaction));
  return changeAnswer(result, translatorFor(interaction.locale));
}

export async function applyVoteUrl(
  ctx: BaseContext,
  target: ChangeTarget,
  input: VoteUrlInput,
  actor: Actor,
): Promise<ChangeResult> {
  refuseEnvironmentSetting(ctx.servers, target.guildId, 'voteUrl');
  const url = parseVoteUrl(input.url);
  if (!url) throw new UserFacingError('refusal.badVoteUrl', { example: 'https://guilds.me/server/…' });
  await ctx.servers.setSettings(target.guildId, { voteUrl: url });
  return changed(
    ctx,
    target,
    actor,
    changeResult('setup.voteUrl.set', () => ({ url })),
  );
}
