import type { Client } from 'discord.js';
import type { ServiceClient } from './api/index.js';
import type { Config } from './config.js';
import { channelPoster } from './feeds/channel-poster.js';
import { Lanes } from './feeds/lanes.js';
import { ReviewFeed } from './feeds/review-feed.js';
import { translatorFor } from './i18n/index.js';
import type { Logger } from './log.js';
import { VoteMirror } from './mirror/vote-mirror.js';
import { VoteReminder } from './reminders/vote-reminder.js';
import { memberRoles } from './roles/member-roles.js';
import { VoterRole } from './roles/voter-role.js';
import { ExpirySchedule, type ExpiryConsumer } from './schedule/expiry-schedule.js';
import type { Store } from './store/index.js';
import type { MemberNames } from './bot/member-names.js';
import { inboxRoute } from './webhooks/inbox-route.js';
import { InboxWorker } from './webhooks/inbox-worker.js';
import { startReceiver, type Receiver } from './webhooks/receiver.js';

export interface Realtime {
  readonly feed: ReviewFeed;
  readonly lanes: Lanes;
  readonly mirror: VoteMirror;
  readonly receiver: Receiver | undefined;
  /** When each running vote ends: the voter role and reminders act on it. */
  readonly schedule: ExpirySchedule;
  /** Discord is connected: handle what the store holds, announce, poll. */
  begin(): void;
  stop(): Promise<void>;
}

/**
 * Guilds' push events and the vote mirror. The receiver starts at once, so deliveries are stored
 * even while Discord is still connecting; handling starts with `begin`.
 */
export async function startRealtime(deps: {
  config: Config;
  api: ServiceClient;
  client: Client;
  store: Store;
  logger: Logger;
  names: MemberNames;
  /** Counts what the webhook receiver refuses, when metrics are on. */
  onWebhookRefused?: (reason: string) => void;
}): Promise<Realtime> {
  const { config, api, client, store, logger, names } = deps;
  const now = () => Date.now();
  const poster = channelPoster(client.rest);
  const guild = () => client.guilds.cache.get(config.discord.guildId) ?? null;
  const i18n = () => translatorFor(guild()?.preferredLocale);
  const nameOf = (ids: readonly string[]) => names.resolve(guild(), ids);
  const lanes = new Lanes({
    store,
    poster,
    logger,
    now,
    i18n,
    names: nameOf,
    reviewChannelId: config.reviewChannelId,
    voteChannelId: config.voteChannelId,
    auditChannelId: config.reviewLogChannelId,
    // A refused channel is re-tried as often as the other things an admin must fix, at least each minute.
    lane: { probeMs: Math.min(config.expiryCheckMs, 60_000) },
  });
  const feed = new ReviewFeed({ store, lanes, channelId: config.reviewChannelId, logger });
  const consumers: ExpiryConsumer[] = [];
  if (config.voterRoleId !== undefined)
    consumers.push(
      new VoterRole({
        rest: client.rest,
        guildId: config.discord.guildId,
        roleId: config.voterRoleId,
        logger,
        now,
        auditChannelId: config.reviewLogChannelId,
        i18n,
        probeMs: config.expiryCheckMs,
        memberRoles: (ids) => memberRoles(guild(), ids),
      }),
    );
  consumers.push(
    new VoteReminder({
      rest: client.rest,
      store,
      logger,
      now,
      voteUrl: config.voteUrl,
      channelId: config.reminderChannelId,
      serverName: () => guild()?.name ?? '',
    }),
  );
  const schedule = new ExpirySchedule({ store, logger, now, consumers, reconcileMs: config.expiryCheckMs });
  const onRunning = (userId: string, endsAt: number) => schedule.voteKnown(userId, endsAt);
  const mirror = new VoteMirror({
    store,
    api,
    logger,
    pollMs: config.votePollMs,
    now,
    onAccepted: () => lanes.wakeVotes(),
    onRunning,
  });
  const worker = new InboxWorker({
    store,
    logger,
    handle: inboxRoute({
      store,
      api,
      feed,
      wakeVotes: () => lanes.wakeVotes(),
      mirror,
      logger,
      rememberName: (userId, name) => names.remember(userId, name),
      onNewVote: onRunning,
    }),
  });
  let begun = false;
  const receiver =
    config.webhook &&
    (await startReceiver({
      ...config.webhook,
      guildId: config.discord.guildId,
      store,
      logger,
      onRefused: deps.onWebhookRefused,
      onStored: () => {
        if (begun) worker.wake();
      },
    }));
  if (receiver) logger.info({ url: receiver.url }, 'webhook receiver listening');

  return {
    feed,
    lanes,
    mirror,
    receiver,
    schedule,
    begin() {
      if (begun) return;
      begun = true;
      worker.wake();
      void lanes.start().catch((err: unknown) => logger.warn({ err }, 'could not read the work waiting for channels'));
      mirror.start();
      schedule.start();
    },
    async stop() {
      await receiver?.close();
      await Promise.all([worker.stop(), lanes.stop(), mirror.stop(), schedule.stop()]);
    },
  };
}
