import type { Client } from 'discord.js';
import type { ServiceClient } from './api/index.js';
import type { Config } from './config.js';
import { channelPoster } from './feeds/channel-poster.js';
import { EventWorker } from './feeds/event-worker.js';
import { ReviewFeed } from './feeds/review-feed.js';
import { eventRoute } from './feeds/route-event.js';
import { VoteAnnouncer } from './feeds/vote-announcer.js';
import { translatorFor } from './i18n/index.js';
import type { Logger } from './log.js';
import { VoteMirror } from './mirror/vote-mirror.js';
import { VoteReminder } from './reminders/vote-reminder.js';
import { memberRoles } from './roles/member-roles.js';
import { VoterRole } from './roles/voter-role.js';
import { ExpirySchedule, type ExpiryConsumer } from './schedule/expiry-schedule.js';
import type { Store } from './store/index.js';
import type { MemberNames } from './bot/member-names.js';
import { startReceiver, type Receiver } from './webhooks/receiver.js';

export interface Realtime {
  readonly feed: ReviewFeed;
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
  const feed = new ReviewFeed({ store, poster, channelId: config.reviewChannelId, logger, i18n, names: nameOf });
  const announcer = new VoteAnnouncer({
    store,
    poster,
    channelId: config.voteChannelId,
    logger,
    now,
    i18n,
    names: nameOf,
  });
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
    onAccepted: () => announcer.wake(),
    onRunning,
  });
  const worker = new EventWorker({
    store,
    logger,
    handle: eventRoute({
      store,
      api,
      feed,
      announcer,
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
    mirror,
    receiver,
    schedule,
    begin() {
      if (begun) return;
      begun = true;
      worker.wake();
      announcer.wake();
      mirror.start();
      schedule.start();
    },
    async stop() {
      await receiver?.close();
      await Promise.all([worker.stop(), announcer.stop(), mirror.stop(), schedule.stop()]);
    },
  };
}
