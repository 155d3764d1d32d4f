import type { ConnectionCheck } from '../api/index.js';
import {
  channelMention,
  roleMention,
  Routes,
  type ChatInputCommandInteraction,
  type Guild,
  type REST,
} from 'discord.js';
import type { BaseContext } from '../runtime/context.js';
import { UserFacingError } from '../bot/user-error.js';
import { describeDiff, diffCommands } from '../guild-rules/command-diff.js';
import { translatorFor, type Translator } from '../i18n/index.js';
import { lastFour } from '../secrets/secret-box.js';
import type { ServerSettings } from '../servers/server-settings.js';
import type { DeliveryRecord, PollRecord } from '../store/index.js';
import { INTERACTION_STORE_MS, storeWithin } from '../store/within.js';
import { deliveryLogEmbed } from '../views/delivery-log.js';
import { relativeTime } from '../views/format.js';
import { lastDeliveryText, lastTestText } from '../views/listing.js';
import { environmentSites } from './listing.js';
import { voteLengthText } from './listing-facts.js';
import { deliveryFixes } from './delivery-fixes.js';
import { listName, SITE_FACTS } from '../lists/index.js';
import type { MessageView } from '../views/message.js';
import { setupStatusView, type StatusLine } from '../views/setup-status.js';
import { CHANNEL_KINDS, missingIn, type ChannelKind } from './channel.js';
import { roleProblemsIn } from './role.js';
import { topggReadsLine } from './topgg-status.js';
import { forwardLines } from './forward-status.js';

const command = (name: string) => `\`/setup ${name}\``;

/**
 * `/setup status`: the doctor's checks for this server, from what the bot sees: one GET /votes through
 * the server's own client and rate limiter (accepted? rate-limit headers?), the channels and the voter role against
 * the cached permissions, the registered commands, the last delivery and the last poll with its outcome; then
 * the server's delivery log.
 */
export async function setupStatus(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView> {
  const guild = interaction.guild;
  if (!guild) throw new UserFacingError('refusal.serverUnseen');
  const i18n = translatorFor(interaction.locale);
  const { lines, deliveries } = await statusLines(guild, ctx, i18n);
  const view = setupStatusView(lines, i18n);
  if (ctx.config.webhook)
    view.embeds.push(
      deliveryLogEmbed(
        deliveries,
        i18n,
        deliveryFixes(deliveries, i18n, command('webhook'), environmentSites(ctx, guild.id)),
        listName,
      ),
    );
  return view;
}

/** The checks of `/setup status` from the server as the bot sees it: the command and the dashboard show them. */
export async function statusLines(
  guild: Guild,
  ctx: BaseContext,
  i18n: Translator,
): Promise<{ lines: StatusLine[]; deliveries: DeliveryRecord[] | 'unreadable' }> {
  const guildId = guild.id;
  const settings = ctx.servers.settings(guildId);
  const [service, commands, lastDelivery, lastPoll, deliveries, topggReads, forwards] = await Promise.all([
    probeService(guildId, ctx),
    commandsLine(guild, ctx, i18n),
    ctx.setup.lastDeliveryAt(guildId),
    ctx.setup.lastPoll(guildId),
    // The log is a convenience: a slow store costs this part only, never the answer.
    storeWithin(ctx.setup.recentDeliveries(guildId), INTERACTION_STORE_MS).catch((): 'unreadable' => 'unreadable'),
    storeWithin(topggReadsLine(guildId, ctx, i18n), INTERACTION_STORE_MS).catch(() => undefined),
    forwardLines(guildId, ctx, i18n),
  ]);
  const lines = [
    credentialsLine(service, i18n),
    ...channelLines(guild, settings, i18n),
    voterRoleLine(guild, settings, i18n),
    commands,
    rateLimitLine(service, i18n),
    webhookLine(lastDelivery, ctx, i18n),
    ...listingLines(guildId, ctx, i18n),
    ...(topggReads ? [topggReads] : []),
    pollLine(lastPoll, ctx, i18n),
    ...forwards,
  ];
  return { lines, deliveries };
}

interface ServiceSeen {
  apiKey: string;
  check: ConnectionCheck;
}

/** Not through a raw request: an admin asking again and again must not push the server past Guilds' limits. */
async function probeService(guildId: string, ctx: BaseContext): Promise<ServiceSeen | undefined> {
  if (!ctx.servers.isConfigured(guildId)) return undefined;
  const check = await ctx.setup.checkService(guildId);
  return { apiKey: lastFour(ctx.servers.credentials(guildId).apiKey), check };
}

function credentialsLine(service: ServiceSeen | undefined, { t }: Translator): StatusLine {
  const label = t('setup.status.credentials');
  const fix = t('setup.status.fixCredentials', { command: command('credentials') });
  if (!service) return { ok: false, label, detail: t('setup.status.credentialsNone'), fix };
  const { check } = service;
  if (check.outcome === 'ok')
    return { ok: true, label, detail: t('setup.status.credentialsOk', { apiKey: service.apiKey }) };
  if (check.outcome === 'credentials_refused')
    return { ok: false, label, detail: t('setup.status.credentialsRefused', { status: check.status }), fix };
  return { ok: false, label, detail: t('setup.status.serviceDown'), fix: t('setup.status.fixLater') };
}

function channelLines(guild: Guild, settings: ServerSettings | undefined, i18n: Translator): StatusLine[] {
  const { t } = i18n;
  return (Object.keys(CHANNEL_KINDS) as ChannelKind[]).map((kind): StatusLine => {
    const label = t(`setup.kind.${kind}`);
    const channelId = settings?.[CHANNEL_KINDS[kind]];
    if (!channelId) return { ok: true, label, detail: t('setup.status.channelOff') };
    const channel = channelMention(channelId);
    const fixWith = (missing: string) => t('setup.status.fixChannel', { missing, command: command('channel') });
    let missing: string[];
    try {
      missing = missingIn(guild, channelId);
    } catch {
      return { ok: false, label, detail: t('setup.status.channelGone'), fix: fixWith('View Channel') };
    }
    if (missing.length === 0) return { ok: true, label, detail: t('setup.status.channelOk', { channel }) };
    const list = missing.join(', ');
    return {
      ok: false,
      label,
      detail: t('setup.status.channelMissing', { channel, missing: list }),
      fix: fixWith(list),
    };
  });
}

function voterRoleLine(guild: Guild, settings: ServerSettings | undefined, i18n: Translator): StatusLine {
  const { t } = i18n;
  const label = t('setup.status.voterRole');
  const roleId = settings?.voterRoleId;
  if (!roleId) return { ok: true, label, detail: t('setup.status.channelOff') };
  const { problems, fix } = roleProblemsIn(guild, roleId, i18n);
  const role = roleMention(roleId);
  if (problems.length === 0) return { ok: true, label, detail: role };
  return {
    ok: false,
    label,
    detail: t('setup.status.roleProblem', { role, problem: problems.join('; ') }),
    fix:
      fix === 'anotherRole'
        ? t('setup.status.fixRoleChoose', { command: '`/setup role voter:`' })
        : t('setup.status.fixRole', { role }),
  };
}

/** The registered commands against commands/, where deploy-commands put them (the server, or everywhere). */
async function commandsLine(guild: Guild, ctx: BaseContext, { t }: Translator): Promise<StatusLine> {
  const label = t('setup.status.commands');
  const appId = ctx.config.discord.clientId;
  const route =
    ctx.servers.mode === 'single'
      ? Routes.applicationGuildCommands(appId, guild.id)
      : Routes.applicationCommands(appId);
  try {
    const registered = await registeredCommands(guild.client.rest, route);
    const diff = diffCommands(ctx.setup.commands, registered);
    if (diff.missing.length + diff.extra.length + diff.changed.length === 0)
      return { ok: true, label, detail: t('setup.status.commandsOk') };
    return {
      ok: false,
      label,
      detail: t('setup.status.commandsDiffer', { diff: describeDiff(diff) }),
      fix: t('setup.status.fixCommands'),
    };
  } catch {
    return { ok: false, label, detail: t('setup.status.discordDown'), fix: t('setup.status.fixLater') };
  }
}

/** How long one read of the registered commands answers every /setup status (all servers share it). */
const REGISTERED_FRESH_MS = 30_000;
const registeredReads = new Map<string, { at: number; read: Promise<Array<Record<string, unknown>>> }>();

/**
 * The commands Discord has registered at `route`, read once per REGISTERED_FRESH_MS and shared: in
 * many-server mode every server's status asks the same global route, and 20 status checks at once
 * each asking it waited on the route's bucket (docs/performance.md, "Figures behind the code"). A failed read is
 * not kept. Changes by deploy-commands show within that time.
 */
function registeredCommands(rest: REST, route: `/${string}`) {
  const now = Date.now();
  const kept = registeredReads.get(route);
  if (kept && now - kept.at < REGISTERED_FRESH_MS) return kept.read;
  const read = rest.get(route, {
    query: new URLSearchParams({ with_localizations: 'true' }),
  }) as Promise<Array<Record<string, unknown>>>;
  registeredReads.set(route, { at: now, read });
  read.catch(() => registeredReads.delete(route));
  return read;
}

function rateLimitLine(service: ServiceSeen | undefined, { t }: Translator): StatusLine {
  const label = t('setup.status.rateLimit');
  const seen = service?.check.outcome === 'ok' ? service.check.rateLimit : undefined;
  if (!seen) return { ok: true, label, detail: t('setup.status.rateLimitNone') };
  return { ok: true, label, detail: t('setup.status.rateLimitSeen', { remaining: seen.remaining, limit: seen.limit }) };
}

function webhookLine(lastDelivery: number | undefined, ctx: BaseContext, { t }: Translator): StatusLine {
  const label = t('setup.status.webhook');
  if (lastDelivery !== undefined) return { ok: true, label, detail: relativeTime(new Date(lastDelivery)) };
  const fix = ctx.config.webhook
    ? t('setup.status.fixWebhook', { command: command('webhook') })
    : t('refusal.webhookOff.text');
  return { ok: false, label, detail: t('setup.webhook.never'), fix };
}

/** Each list besides Guilds: its last delivery and its last test, or how to get the first. */
function listingLines(guildId: string, ctx: BaseContext, i18n: Translator): StatusLine[] {
  const { t } = i18n;
  return ctx.servers.listings.of(guildId).map((listing): StatusLine => {
    const site = SITE_FACTS[listing.site].name;
    const label = t('setup.status.listing', { site });
    const test = lastTestText(listing.lastTestAt, i18n);
    const votes = t('setup.status.listingVotes', { length: voteLengthText(listing, i18n) });
    if (listing.lastDeliveryAt !== null) {
      const seen = t('setup.status.listingSeen', { when: lastDeliveryText(listing.lastDeliveryAt, i18n), test });
      return { ok: true, label, detail: `${seen}; ${votes}` };
    }
    const fix = t('setup.status.fixListing', { command: command(`listing add site:${listing.site}`), site });
    return { ok: false, label, detail: `${t('setup.webhook.never')}; ${test}; ${votes}`, fix };
  });
}

function pollLine(lastPoll: PollRecord | undefined, ctx: BaseContext, { t }: Translator): StatusLine {
  const label = t('setup.status.poll');
  if (ctx.config.votePollMs === 0) return { ok: true, label, detail: t('setup.status.pollOff') };
  const fix = t('setup.status.fixPoll');
  if (lastPoll === undefined) return { ok: false, label, detail: t('setup.status.pollNever'), fix };
  const when = relativeTime(new Date(lastPoll.at));
  if (lastPoll.ok) return { ok: true, label, detail: when };
  return {
    ok: false,
    label,
    detail: t('setup.status.pollFailed', { when, problem: t(pollProblem(lastPoll.code)) }),
    fix,
  };
}

const POLL_PROBLEMS = ['unauthorized', 'service_unavailable', 'invalid_response'] as const;

/** A failed poll's error code as text; codes the view does not know read as the generic one. */
function pollProblem(code: string | undefined): `setup.poll.${(typeof POLL_PROBLEMS)[number] | 'other'}` {
  const known = POLL_PROBLEMS.find((problem) => problem === code);
  return `setup.poll.${known ?? 'other'}`;
}
