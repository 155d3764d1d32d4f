import { discordPoster, textBody } from '../bot/poster.js';
import { tellAuditChannel } from '../bot/tell-audit-channel.js';
import { UserFacingError } from '../bot/user-error.js';
import { mentionWithName } from '../core/discord-text.js';
import { translatorFor } from '../i18n/index.js';
import { SITE_FACTS } from '../lists/index.js';
import type { BaseContext } from '../runtime/context.js';
import { lastFour } from '../secrets/secret-box.js';
import type { ChangeTarget } from './change.js';
import { listingSecret } from './listing.js';
import type { Actor } from '../bot/actor.js';

/**
 * Guilds' webhook token, or a list's secret, by the site id the listings page names it with. Only a
 * secret this server keeps: one the host set in its environment is the host's, read there and never
 * revealed here.
 */
function keptSecret(ctx: BaseContext, guildId: string, site: string): string | undefined {
  if (site !== 'guilds') return listingSecret(ctx, guildId, site);
  if (ctx.servers.record(guildId)?.sealed.webhookToken) return ctx.servers.webhookToken(guildId);
  if (ctx.servers.webhookToken(guildId) !== undefined)
    throw new UserFacingError('refusal.setByEnvironment', { variable: 'WEBHOOK_TOKEN' });
  return undefined;
}

/**
 * The dashboard's Reveal: a kept secret shown whole to the member who asked, once. Nothing changes,
 * but whoever saw a secret may use it, so the audit channel is told who revealed which one (by its
 * end only) before it is handed back.
 */
export async function revealSecret(
  ctx: BaseContext,
  { guildId, guild }: ChangeTarget,
  { site }: { site: string },
  actor: Actor,
): Promise<string> {
  if (!ctx.config.webhook) throw new UserFacingError('refusal.webhookOff');
  const secret = keptSecret(ctx, guildId, site);
  const name = SITE_FACTS[site as keyof typeof SITE_FACTS].name;
  if (secret === undefined) throw new UserFacingError('refusal.secretNone', { site: name });
  ctx.logger.info({ guildId, userId: actor.userId, site }, 'secret revealed on the dashboard');
  if (guild) {
    const { t } = translatorFor(guild.preferredLocale);
    const line = t('audit.dashboard.revealed', {
      site: name,
      last4: lastFour(secret),
      name: mentionWithName(actor.userId, actor.name),
    });
    await tellAuditChannel(discordPoster(guild.client.rest), {
      channelId: ctx.servers.settings(guildId)?.auditChannelId,
      body: textBody(line),
      logger: ctx.logger,
      failedLine: 'could not post the revealed secret to the audit channel',
      context: { guildId, site },
    });
  }
  return secret;
}
