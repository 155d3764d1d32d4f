import { afterAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { Actor } from '../../src/bot/actor.js';
import { ReplyGuard } from '../../src/bot/reply-guard.js';
import { UserFacingError } from '../../src/bot/user-error.js';
import { parseConfig } from '../../src/config/bot.js';
import { translatorFor } from '../../src/i18n/index.js';
import { setupPorts } from '../../src/processes/setup-ports.js';
import type { BaseContext } from '../../src/runtime/context.js';
import { Servers } from '../../src/servers/servers.js';
import { apiKeyCreateAnswer, apiKeyListAnswer, apiKeyRevokeAnswer } from '../../src/setup/api-key.js';
import type { SetupCall } from '../../src/setup/steps.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import type { ServiceClients } from '../../src/servers/service-clients.js';
import type { MessageView } from '../../src/views/message.js';
import { capturedLog } from '../support/captured-log.js';
import { VALID_ENV } from '../support/config-env.js';

// /setup api-key's three steps on a real store, as the command and a future dashboard page call them:
// refused when the API is off or its keys are the host's, and each key kept as a hash, named, bounded.

const GUILD = '220000000000000002';
const ADMIN: Actor = { userId: '330000000000000003', via: 'command', locale: 'en-US' };
const ENV_KEY = `vrk_${'0123456789abcdef'.repeat(3)}`;
const MANY = {
  ...VALID_ENV,
  DISCORD_GUILD_ID: '',
  SERVICE_API_KEY: '',
  SERVICE_APP_ID: '',
  SECRETS_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_PORT: '8090',
};
const roots: StoreRoot[] = [];
afterAll(async () => {
  for (const root of roots) await root.close();
});

async function contextOn(env: Record<string, string>, log = capturedLog()): Promise<BaseContext & { root: StoreRoot }> {
  const config = parseConfig(env);
  const root = await openStore({ kind: 'sqlite', file: ':memory:' });
  roots.push(root);
  const single = config.discord.guildId;
  const servers = new Servers(
    root,
    config.secrets,
    single === undefined
      ? undefined
      : { guildId: single, settings: {}, credentials: undefined, webhookToken: undefined },
  );
  await servers.load();
  // /setup api-key asks no listing service: no client is ever made.
  const clients = {} as ServiceClients;
  return {
    root,
    config,
    logger: log.logger,
    replyGuard: new ReplyGuard(),
    now: () => new Date(),
    servers,
    setup: setupPorts({ store: root, servers, clients, commands: [], milestonesChanged: () => undefined }),
  };
}

const call: SetupCall = { target: { guildId: GUILD, guild: null }, actor: ADMIN, i18n: translatorFor('en-US') };
const text = (view: MessageView) => JSON.stringify(view.embeds.map((embed) => embed.toJSON()));
const keyName = (name: string) => ({ keyName: name });

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof UserFacingError) return error.key;
    throw error;
  }
  throw new Error('not refused');
}

describe('/setup api-key', () => {
  it('is refused, naming API_ENABLED, while the API is off', async () => {
    const ctx = await contextOn(MANY);
    expect(await refusal(apiKeyCreateAnswer(ctx, keyName('bot'), call))).toBe('refusal.apiOff');
    expect(await refusal(apiKeyRevokeAnswer(ctx, keyName('bot'), call))).toBe('refusal.apiOff');
    expect(await refusal(apiKeyListAnswer(ctx, call))).toBe('refusal.apiOff');
    expect(await ctx.root.apiKeys(GUILD)).toEqual([]);
  });

  it('leaves one server’s keys to the host: create and revoke name API_KEYS, list shows their ends', async () => {
    const ctx = await contextOn({
      ...VALID_ENV,
      WEBHOOK_PORT: '8090',
      WEBHOOK_TOKEN: 'a-guilds-token-0123456',
      API_ENABLED: 'true',
      API_KEYS: ENV_KEY,
    });
    expect(await refusal(apiKeyCreateAnswer(ctx, keyName('bot'), call))).toBe('refusal.setByEnvironment');
    expect(await refusal(apiKeyRevokeAnswer(ctx, keyName('bot'), call))).toBe('refusal.setByEnvironment');
    const list = text(await apiKeyListAnswer(ctx, call));
    expect(list).toContain(`ending in ••••${ENV_KEY.slice(-4)}: set by API_KEYS`);
    expect(list).not.toContain(ENV_KEY);
  });

  it('makes a key shown once, keeps only its hash and end, and never logs it', async () => {
    const log = capturedLog();
    const ctx = await contextOn({ ...MANY, API_ENABLED: 'true' }, log);
    const made = text(await apiKeyCreateAnswer(ctx, keyName(' economy-bot '), call));
    const key = /vrk_[A-Za-z0-9_-]{43}/.exec(made)![0];
    expect(made).toContain(`/api/v1/guilds/${GUILD}/members/<member id>/vote`);
    const [stored] = await ctx.root.apiKeys(GUILD);
    expect(stored).toMatchObject({ name: 'economy-bot', last4: `••••${key.slice(-4)}`, createdBy: ADMIN.userId });
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(JSON.stringify(log.lines)).not.toContain(key);
    expect(
      log.lines.some((line) => line.msg === 'vote API key made with /setup' && line.keyName === 'economy-bot'),
    ).toBe(true);
    expect(text(await apiKeyListAnswer(ctx, call))).not.toContain(key);
  });

  it('refuses a name that is no name, a name taken, and an 11th key, changing nothing', async () => {
    const ctx = await contextOn({ ...MANY, API_ENABLED: 'true' });
    expect(await refusal(apiKeyCreateAnswer(ctx, keyName('two words'), call))).toBe('setup.apiKey.badName');
    expect(await refusal(apiKeyCreateAnswer(ctx, keyName('<@&1>'), call))).toBe('setup.apiKey.badName');
    for (let i = 0; i < 10; i += 1) await apiKeyCreateAnswer(ctx, keyName(`bot-${i}`), call);
    expect(text(await apiKeyCreateAnswer(ctx, keyName('bot-3'), call))).toContain('already');
    expect(text(await apiKeyCreateAnswer(ctx, keyName('bot-10'), call))).toContain('10 keys, the most it may have');
    expect(await ctx.root.apiKeys(GUILD)).toHaveLength(10);
  });

  it('revokes a key by its name, and says so when there is none of that name, shown as typed in code', async () => {
    const ctx = await contextOn({ ...MANY, API_ENABLED: 'true' });
    await apiKeyCreateAnswer(ctx, keyName('old-bot'), call);
    expect(text(await apiKeyRevokeAnswer(ctx, keyName('old-bot'), call))).toContain('Key revoked');
    expect(await ctx.root.apiKeys(GUILD)).toEqual([]);
    const none = text(await apiKeyRevokeAnswer(ctx, keyName('**@everyone**'), call));
    expect(none).toContain('no key called `**@everyone**`');
  });
});
