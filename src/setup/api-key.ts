import { UserFacingError } from '../bot/user-error.js';
import { inlineCode, mentionWithName } from '../core/discord-text.js';
import type { Translator } from '../i18n/index.js';
import type { BaseContext } from '../runtime/context.js';
import { hashApiKey, newApiKey } from '../secrets/api-keys.js';
import { lastFour } from '../secrets/secret-box.js';
import { EmbedBuilder } from '../views/embed-builder.js';
import { relativeTime } from '../views/format.js';
import { messageView, type MessageView } from '../views/message.js';
import { ToneColour } from '../views/theme.js';
import { setupAnswer } from './answer.js';
import type { SetupCall } from './steps.js';

/** Keys one server may hold: enough for every bot it runs, few enough to read in one list. */
const API_KEYS_MAX = 10;
/** What `name:` takes (Discord's box is bounded to the same length). */
export const API_KEY_NAME_MAX = 32;
const KEY_NAME = /^[A-Za-z0-9_-]{1,32}$/;

const CREATE = '`/setup api-key create`';
const REVOKE = '`/setup api-key revoke`';
const LIST = '`/setup api-key list`';

export interface ApiKeyInput {
  keyName: string;
}

/** The API must be on, and in single-server mode its keys are the host's (API_KEYS): refused before anything else. */
function keysKeptHere(ctx: BaseContext): void {
  if (!ctx.config.webhook?.api) throw new UserFacingError('refusal.apiOff');
  if (ctx.servers.mode === 'single') throw new UserFacingError('refusal.setByEnvironment', { variable: 'API_KEYS' });
}

/** A step on one key by its name: the API on and its keys kept here checked first, the name as typed, trimmed. */
const onKeyNamed =
  (act: (ctx: BaseContext, name: string, call: SetupCall) => Promise<MessageView>) =>
  async (ctx: BaseContext, { keyName }: ApiKeyInput, call: SetupCall): Promise<MessageView> => {
    keysKeptHere(ctx);
    return act(ctx, keyName.trim(), call);
  };

/**
 * `/setup api-key create name:`: a new key bound to this server, shown whole this once; the store
 * keeps its hash and its last four. The log names the key, never its value.
 */
export const apiKeyCreateAnswer = onKeyNamed(async (ctx, name, { target: { guildId }, actor, i18n }) => {
  if (!KEY_NAME.test(name)) throw new UserFacingError('setup.apiKey.badName');
  const key = newApiKey();
  const record = {
    guildId,
    name,
    keyHash: hashApiKey(key),
    last4: lastFour(key),
    createdAt: ctx.now().getTime(),
    createdBy: actor.userId,
  };
  const added = await ctx.setup.apiKeys.addApiKey(record, API_KEYS_MAX);
  if (added === 'taken') return setupAnswer('setup.apiKey.taken', { name, command: REVOKE }, i18n, 'info');
  if (added === 'full') return setupAnswer('setup.apiKey.full', { most: API_KEYS_MAX, command: REVOKE }, i18n, 'info');
  ctx.logger.info({ guildId, userId: actor.userId, keyName: name }, 'vote API key made with /setup');
  const path = `/api/v1/guilds/${guildId}/members/<member id>/vote`;
  const base = ctx.config.webhook?.publicUrl?.replace(/\/+$/, '') ?? '';
  return setupAnswer(
    'setup.apiKey.created',
    { name, key: inlineCode(key), last4: record.last4, path: inlineCode(`${base}${path}`) },
    i18n,
  );
});

/** `/setup api-key revoke name:`: the key's row goes, so its next request is refused (401). */
export const apiKeyRevokeAnswer = onKeyNamed(async (ctx, name, { target: { guildId }, actor, i18n }) => {
  // A name no key can have is not looked up; it is shown as typed, in code, so it formats nothing.
  const removed = KEY_NAME.test(name) ? await ctx.setup.apiKeys.removeApiKey(guildId, name) : undefined;
  if (!removed) {
    const shown = inlineCode(name.replaceAll('`', '').slice(0, API_KEY_NAME_MAX));
    return setupAnswer('setup.apiKey.unknown', { name: shown, command: LIST }, i18n, 'info');
  }
  ctx.logger.info({ guildId, userId: actor.userId, keyName: name }, 'vote API key revoked with /setup');
  return setupAnswer('setup.apiKey.revoked', { name, last4: removed.last4 }, i18n);
});

/** `/setup api-key list`: each key by its name and end; in single-server mode, those API_KEYS sets. */
export async function apiKeyListAnswer(
  ctx: BaseContext,
  { target: { guildId }, i18n }: SetupCall,
): Promise<MessageView> {
  const api = ctx.config.webhook?.api;
  if (!api) throw new UserFacingError('refusal.apiOff');
  const lines =
    ctx.servers.mode === 'single'
      ? api.keys.map((key) => i18n.t('setup.apiKey.environmentLine', { last4: lastFour(key), variable: 'API_KEYS' }))
      : (await ctx.setup.apiKeys.apiKeys(guildId)).map((key) => storedLine(key, i18n));
  const embed = new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle(i18n.t('setup.apiKey.listTitle'))
    .setDescription(lines.length > 0 ? lines.join('\n') : i18n.t('setup.apiKey.none', { command: CREATE }));
  return messageView(embed);
}

function storedLine(
  key: { name: string; last4: string; createdAt: number; createdBy: string },
  { t }: Translator,
): string {
  return t('setup.apiKey.line', {
    name: key.name,
    last4: key.last4,
    when: relativeTime(new Date(key.createdAt)),
    member: mentionWithName(key.createdBy, undefined),
  });
}
