import { inlineCode } from '../core/discord-text.js';
import { EmbedBuilder } from '../views/embed-builder.js';
import type { BaseContext } from '../runtime/context.js';
import { UserFacingError } from '../bot/user-error.js';
import type { Translator } from '../i18n/index.js';
import { lastFour } from '../secrets/secret-box.js';
import { storeWithin, INTERACTION_STORE_MS } from '../store/within.js';
import { SITE_FACTS } from '../lists/index.js';
import { relativeTime } from '../views/format.js';
import type { ListingFacts, ShownSecret } from '../views/listing.js';
import { messageView, type MessageView } from '../views/message.js';
import { ToneColour } from '../views/theme.js';
import { changed, changeResult, type ChangeTarget } from './change.js';
import type { SetupCall } from './steps.js';
import { sealing } from './manage-server.js';
import type { Actor } from '../bot/actor.js';

/** `<WEBHOOK_PUBLIC_URL><WEBHOOK_PATH>/<server id>`: the address the receiver takes this server's deliveries at. */
export function serverWebhookUrl(publicUrl: string, path: string, guildId: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  const trimmedPath = path.replace(/\/+$/, '');
  return `${base}${trimmedPath}/${guildId}`;
}

/**
 * `/setup webhook [rotate:true]`: the server's address and token for the listing's webhook page.
 * A token is made the first time (or on rotate) and shown whole only then; later only its end.
 */
export async function webhookAnswer(ctx: BaseContext, input: WebhookInput, call: SetupCall): Promise<MessageView> {
  return webhookView({ ...(await applyWebhook(ctx, call.target, input, call.actor)), i18n: call.i18n });
}

export interface WebhookInput {
  rotate?: boolean;
}

/** The webhook's facts, a token made first if there is none or `rotate` asks; a made token is audited by its end. */
export async function applyWebhook(
  ctx: BaseContext,
  target: ChangeTarget,
  { rotate = false }: WebhookInput,
  actor: Actor,
): Promise<Omit<WebhookViewInput, 'i18n'>> {
  const { guildId } = target;
  const webhook = ctx.config.webhook;
  if (!webhook) throw new UserFacingError('refusal.webhookOff');
  const kept = ctx.servers.record(guildId)?.sealed.webhookToken ? ctx.servers.webhookToken(guildId) : undefined;
  const fresh = rotate || !kept ? await sealing(() => ctx.setup.changes.newWebhookToken(guildId)) : undefined;
  if (fresh) {
    ctx.logger.info({ guildId, userId: actor.userId, rotate }, 'webhook token made with /setup');
    const vars = () => ({ last4: lastFour(fresh) });
    await changed(ctx, target, actor, changeResult('audit.dashboard.webhookToken', vars));
  }
  const last = await storeWithin(ctx.setup.lastDeliveryAt(guildId), INTERACTION_STORE_MS).catch(() => undefined);
  return {
    url: webhook.publicUrl && serverWebhookUrl(webhook.publicUrl, webhook.path, guildId),
    path: `${webhook.path.replace(/\/+$/, '')}/${guildId}`,
    token: fresh ? { whole: fresh } : { end: lastFour(kept!) },
    lastDelivery: last === undefined ? undefined : new Date(last),
  };
}

/**
 * Guilds' webhook as the dashboard lists it beside the other lists: its address, its token by its end
 * (never made here: reading makes nothing), its last delivery. Refused when the receiver is off.
 */
export async function webhookFacts(ctx: BaseContext, guildId: string, { t }: Translator): Promise<ListingFacts> {
  const webhook = ctx.config.webhook;
  if (!webhook) throw new UserFacingError('refusal.webhookOff');
  const path = `${webhook.path.replace(/\/+$/, '')}/${guildId}`;
  const sealed = ctx.servers.record(guildId)?.sealed.webhookToken;
  const token = ctx.servers.webhookToken(guildId);
  const secret: ShownSecret =
    token === undefined ? { none: true } : sealed ? { end: lastFour(token) } : { environment: 'WEBHOOK_TOKEN' };
  const last = await storeWithin(ctx.setup.lastDeliveryAt(guildId), INTERACTION_STORE_MS).catch(() => undefined);
  return {
    site: 'guilds',
    name: SITE_FACTS.guilds.name,
    secretFromSite: false,
    address: webhook.publicUrl ? serverWebhookUrl(webhook.publicUrl, webhook.path, guildId) : path,
    secret,
    lastDeliveryAt: last ?? null,
    lastTestAt: null,
    voteLength: t('setup.listing.voteLengthFromSite'),
  };
}

export interface WebhookViewInput {
  /** Undefined when WEBHOOK_PUBLIC_URL is not set: the path alone is shown. */
  url: string | undefined;
  path: string;
  token: { whole: string } | { end: string };
  lastDelivery: Date | undefined;
  i18n: Translator;
}

function webhookView({ url, path, token, lastDelivery, i18n: { t } }: WebhookViewInput): MessageView {
  const embed = new EmbedBuilder()
    .setColor(ToneColour.info)
    .setTitle(t('setup.webhook.title'))
    .setDescription(
      url ? t('setup.webhook.steps') : `${t('setup.webhook.steps')}\n\n${t('setup.webhook.noPublicUrl', { path })}`,
    )
    .addFields(
      { name: t('setup.webhook.url'), value: inlineCode(url ?? path) },
      {
        name: t('setup.webhook.token'),
        value: 'whole' in token ? inlineCode(token.whole) : t('setup.webhook.tokenKept', { last4: token.end }),
      },
      {
        name: t('setup.webhook.lastDelivery'),
        value: lastDelivery ? relativeTime(lastDelivery) : t('setup.webhook.never'),
      },
    );
  return messageView(embed);
}
