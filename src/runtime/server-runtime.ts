import type { Client, Guild } from 'discord.js';
import type { ServiceClient } from '../api/index.js';
import type { BaseContext, BotContext } from './context.js';
import { POST_NAMES_WAIT_MS, type MemberNames } from '../bot/member-names.js';
import type { Config } from '../config/bot.js';
import type { Poster } from '../bot/poster.js';
import { Lanes } from '../feeds/lanes.js';
import { ReviewFeed } from '../feeds/review-feed.js';
import { translatorFor, type Translator } from '../i18n/index.js';
import { listReviewOrigin } from '../lists/index.js';
import type { Logger } from '../core/log.js';
import { VoteMirror } from '../mirror/vote-mirror.js';
import { VoteReminder } from '../reminders/vote-reminder.js';
import { memberRoles } from '../roles/member-roles.js';
import { MilestoneRoles } from '../roles/milestone-roles.js';
import type { ServerPasses } from './server-passes.js';
import { VoterRole } from '../roles/voter-role.js';
import type { ExpiryConsumer } from '../schedule/expiry-consumers.js';
import { ExpirySchedule } from '../schedule/expiry-schedule.js';
import type {
  ExpiryStore,
  MilestoneStore,
  MirrorStore,
  OutboxStore,
  ReminderStore,
  ReviewFeedStore,
  SiteBreakdownStore,
  StatsStore,
  StreakStore,
  VoteLedger,
} from '../store/index.js';
import { storeWithDeadline } from '../store/within.js';
import { StreakIndex } from './streak-index.js';
import { ServerVotes } from './server-votes.js';
import { serverSites } from './server-sites.js';
import { inboxRoute } from './event-route.js';
import type { Listings } from '../servers/listings.js';
import type { ServerSettings } from '../servers/server-settings.js';
import { checkTemplate } from '../announce/template.js';
import { RunningServer, type ServerRuntime } from './running-server.js';

/** The ports this server's features and handlers take (its delivery history is /setup's, read apart). */
type RuntimeStore = ReviewFeedStore &
  OutboxStore &
  VoteLedger &
  SiteBreakdownStore &
  StreakStore &
  StatsStore &
  MirrorStore &
  ExpiryStore &
  ReminderStore &
  MilestoneStore;

export interface ServerRuntimeOptions {
  settings: ServerSettings;
  store: RuntimeStore;
  api: ServiceClient;
  client: Client;
  config: Config;
  base: BaseContext;
  /** This server's logger: every line carries its id. */
  logger: Logger;
  names: MemberNames;
  poster: Poster;
  /** The process's passes over every server: expiries, reminders per list, milestone checks. */
  passes: ServerPasses;
  /** Where a list's delivery is noted for /setup status (its listing's last delivery and test). */
  listings: Pick<Listings, 'delivered'>;
  /** The process's forwarding worker, woken by every vote the ledger takes. */
  forwards?: { wake(): void };
  /** When its first poll runs, so many servers' polls spread over the interval. */
  firstPollAfterMs: number;
  now?: () => number;
  /** Asks Top.gg for a member's running vote (/vote), bound to this server; where this process reads Top.gg. */
  topggVote?: BotContext['topggVote'];
}

/** One clock for every server that is given none. */
const systemNow = (): number => Date.now();

/** What every part of one server's runtime is made with. */
interface ServerParts {
  readonly guildId: string;
  readonly settings: ServerSettings;
  readonly store: RuntimeStore;
  readonly client: Client;
  readonly config: Config;
  readonly logger: Logger;
  readonly poster: Poster;
  readonly now: () => number;
  readonly guild: () => Guild | null;
  readonly i18n: () => Translator;
  readonly serverName: () => string;
  readonly rolesOf: (ids: readonly string[]) => ReturnType<typeof memberRoles>;
  readonly topggVote: BotContext['topggVote'];
}

export function startServerRuntime(options: ServerRuntimeOptions): ServerRuntime {
  // Closures below take these, never `options`: it would keep the whole options object for each server.
  const { settings, store, api, client, config, logger, names, poster, base, passes, forwards } = options;
  const { guildId } = settings;
  const guild = () => client.guilds.cache.get(guildId) ?? null;
  const parts: ServerParts = {
    guildId,
    settings,
    store,
    client,
    config,
    logger,
    poster,
    now: options.now ?? systemNow,
    guild,
    i18n: () => translatorFor(guild()?.preferredLocale),
    // One of each for all the parts below: a process holds them for every server it runs.
    serverName: () => guild()?.name ?? '',
    rolesOf: (ids) => memberRoles(names.members, guild(), ids),
    topggVote: options.topggVote,
  };
  const { now } = parts;
  const lanes = serverLanes(parts, names, base);
  warnBlankTemplates(settings, logger);
  const feed = new ReviewFeed({ store, lanes, channelId: settings.reviewChannelId, logger });
  const voterRole = serverVoterRole(parts);
  const { voteUrl, reminderChannelId: channelId } = settings;
  const reminder = new VoteReminder({ poster, store, logger, now, voteUrl, channelId, serverName: parts.serverName });
  // Exactly as long as it is: an array grown by push kept room for 16.
  const consumers: ExpiryConsumer[] = voterRole ? [voterRole, reminder] : [reminder];
  const milestones = serverMilestones(parts, passes);
  const schedule = new ExpirySchedule({
    guildId,
    pass: passes.expiries,
    store,
    logger,
    now,
    consumers,
    reconcileMs: config.expiryCheckMs,
  });
  const streaks = new StreakIndex(storeWithDeadline(store, ['latestStreaks']), settings.streakGraceMs);
  const votes = new ServerVotes({ lanes, milestones, streaks, schedule, reminders: passes.reminders, forwards });
  const mirror = new VoteMirror({
    store,
    api,
    logger,
    pollMs: config.votePollMs,
    timetable: passes.polls,
    writeTurns: passes.pollWrites,
    key: guildId,
    now,
    votes,
    streakGraceMs: settings.streakGraceMs,
  });
  const handle = inboxRoute({
    store,
    api,
    feed,
    votes,
    mirror,
    logger,
    rememberName: (userId, name) => names.remember(guildId, userId, name, 'delivery'),
    streakGraceMs: settings.streakGraceMs,
    listingDelivered: (site, at, test) => options.listings.delivered(guildId, site, at, test),
  });
  const makeContext = contextMaker(parts, { base, names, api, mirror, streaks, feed });
  return new RunningServer(settings, handle, makeContext, {
    lanes,
    mirror,
    schedule,
    milestones,
    reminder,
    passes,
    now,
    firstPollAfterMs: options.firstPollAfterMs,
  });
}

/** The server's channels' lanes: reviews, votes and the audit channel, each posting in order. */
function serverLanes(parts: ServerParts, names: MemberNames, base: BaseContext): Lanes {
  const { guildId, settings, store, poster, logger, now, i18n, serverName, config, guild } = parts;
  return new Lanes({
    store,
    poster,
    logger,
    now,
    i18n,
    // A post goes out with the names known by then; later answers serve the next post.
    names: (ids) => names.resolve(guildId, guild(), ids, POST_NAMES_WAIT_MS),
    reviewChannelId: settings.reviewChannelId,
    reviewOrigin: (reviewId) => listReviewOrigin(reviewId, guildId),
    voteChannelId: settings.voteChannelId,
    auditChannelId: settings.auditChannelId,
    templates: {
      template: settings.announceTemplate,
      firstVote: settings.firstVoteTemplate,
      ping: settings.announcePing,
    },
    serverName,
    ...(settings.announceEveryList ? { serverSites: () => serverSites(base.servers, guildId) } : {}),
    // A refused channel is re-tried as often as the other things an admin must fix, at least each minute.
    lane: { probeMs: Math.min(config.expiryCheckMs, 60_000) },
  });
}

/** The milestone roles: given on the process's pass over every server's milestone checks. */
function serverMilestones(parts: ServerParts, passes: ServerPasses): MilestoneRoles {
  const { guildId, settings, store, client, config, logger, poster, now, i18n, rolesOf, guild } = parts;
  return new MilestoneRoles({
    rest: client.rest,
    poster,
    store,
    guildId,
    guild,
    logger,
    now,
    auditChannelId: settings.auditChannelId,
    i18n,
    memberRoles: rolesOf,
    checkMs: config.expiryCheckMs,
    checks: passes.milestones,
  });
}

/** The voter role, when the server has one. */
function serverVoterRole(parts: ServerParts): VoterRole | undefined {
  const { guildId, settings, store, client, config, logger, poster, now, i18n, rolesOf } = parts;
  if (settings.voterRoleId === undefined) return undefined;
  return new VoterRole({
    rest: client.rest,
    poster,
    guildId,
    roleId: settings.voterRoleId,
    logger,
    now,
    auditChannelId: settings.auditChannelId,
    i18n,
    probeMs: config.expiryCheckMs,
    memberRoles: rolesOf,
    runningUntil: async (userId) => (await store.scheduledExpiry(userId))?.endsAt,
  });
}

/**
 * The handlers' context, made at the server's first interaction: most of 5,000 servers a process sees
 * none for hours, and the store wrappers and the streak index were a few KB of heap each.
 */
function contextMaker(
  { guildId, settings, store, logger, topggVote }: ServerParts,
  made: Pick<BotContext, 'api' | 'streaks' | 'feed'> & { base: BaseContext; names: MemberNames; mirror: VoteMirror },
): () => BotContext {
  const { base, names, api, mirror, streaks, feed } = made;
  return () => ({
    ...base,
    names: names.of(guildId),
    logger,
    settings,
    api,
    votes: mirror,
    ledger: storeWithDeadline(store, [
      'votesBetween',
      'countingSince',
      'runningVotes',
      'runningVotesOf',
      'votesBySite',
      'mirrorTotals',
      'countMark',
      'setCountMark',
    ]),
    inbox: storeWithDeadline(store, ['unansweredReviews']),
    streaks,
    stats: storeWithDeadline(store, ['votesPerDay', 'ratingCounts', 'votesPerDayBySite']),
    reminders: storeWithDeadline(store, [
      'optInReminders',
      'optOutReminders',
      'reminderOptIn',
      'lastReminder',
      'scheduledExpiry',
    ]),
    feed,
    ...(topggVote ? { topggVote } : {}),
  });
}

/**
 * A template stored before blank ones were refused shows nothing: each vote is announced with the
 * built-in line instead (see templatedLine). Said once when the server starts, with the fix.
 */
function warnBlankTemplates(settings: ServerSettings, logger: Logger): void {
  const options = { announceTemplate: 'template', firstVoteTemplate: 'first-vote' } as const;
  for (const [setting, option] of Object.entries(options) as Array<[keyof typeof options, string]>) {
    const template = settings[setting];
    if (template === undefined) continue;
    const check = checkTemplate(template);
    if (check.ok || check.problem !== 'empty') continue;
    logger.warn(
      { setting },
      'the stored announcement template shows nothing (only invisible characters, spaces or {double}): votes ' +
        `are announced with the built-in line. Fix: /setup announce ${option}: with visible text, or clear:true.`,
    );
  }
}
