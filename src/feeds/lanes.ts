import type { VoteLedger, WaitingWork } from '../store/index.js';
import { STORE_BACKOFF } from '../work/backoff.js';
import { DrainLoop } from '../work/drain-loop.js';
import type { Failure } from '../work/failure.js';
import { ChannelLane, type ChannelLaneOptions } from './channel-lane.js';
import { textBody } from '../bot/poster.js';
import { tellAuditChannel } from '../bot/tell-audit-channel.js';
import type { OriginOf } from '../views/review-feed.js';
import type { AnnouncementTemplates } from '../views/vote-announcement.js';
import { reviewSource, voteSource, type PostSource, type SourceOptions } from './post-sources.js';

export interface LanesOptions extends Pick<ChannelLaneOptions, 'poster' | 'logger' | 'now' | 'i18n' | 'names'> {
  /** What each lane and source takes, and the votes no channel will announce. */
  store: ChannelLaneOptions['store'] & SourceOptions['store'] & Pick<VoteLedger, 'waitingVotes' | 'markAnnounced'>;
  /** REVIEW_CHANNEL_ID: without it reviews are not posted. */
  reviewChannelId: string | undefined;
  /** VOTE_CHANNEL_ID: without it accepted votes are recorded and never announced. */
  voteChannelId: string | undefined;
  /** REVIEW_LOG_CHANNEL_ID: told once when a channel is refused. */
  auditChannelId: string | undefined;
  /** The server's wording of vote announcements, and its name for `{server}`. */
  templates?: AnnouncementTemplates;
  serverName?: () => string;
  /** The server's lists for the every-list line (post-sources.ts); left out: the line is off. */
  serverSites?: () => readonly string[];
  /** Which list besides Guilds a review came from (lists/review-id.ts): labelled, linked, no Reply. */
  reviewOrigin?: OriginOf;
  /** Lane tuning, for tests and the bench. */
  lane?: { spacingMs?: number; probeMs?: number; gatherMs?: number };
}

/** Which setting names each channel, for the operator's fix. */
const SETTING = { votes: 'VOTE_CHANNEL_ID', reviews: 'REVIEW_CHANNEL_ID' } as const;

/**
 * A lane per channel: the review feed's and the vote channel's (one lane, votes first, when both
 * name the same channel), and any channel with old work still to finish. Nothing is posted before
 * `start`.
 */
export class Lanes {
  /** Made at the first post: most of a process's servers post nothing for hours. */
  #lanes: Map<string, ChannelLane> | undefined;
  /** Made at the first vote with no channel to announce it. */
  #unannouncedLoop: DrainLoop | undefined;
  #started = false;

  constructor(private readonly options: LanesOptions) {}

  get #unannounced(): DrainLoop {
    return (this.#unannouncedLoop ??= new DrainLoop(() => this.#markUnannounced(), {
      backoff: STORE_BACKOFF,
      onError: (err) => this.options.logger.warn({ err }, 'could not record votes as not announced'),
    }));
  }

  /** Votes were accepted: announce them (or record them as never announced). */
  wakeVotes(): void {
    if (!this.#started) return;
    if (this.options.voteChannelId === undefined) this.#unannounced.wake();
    else this.#lane(this.options.voteChannelId).wake();
  }

  wakeReviews(): void {
    if (this.#started && this.options.reviewChannelId !== undefined) this.#lane(this.options.reviewChannelId).wake();
  }

  /** A feed message in this channel must be redrawn. */
  wakeChannel(channelId: string): void {
    if (this.#started) this.#lane(channelId).wake();
  }

  /**
   * Discord is connected: finish what the store holds (`waiting`, read for every server at once, so
   * a server with nothing waiting costs no read at start), then post what comes.
   */
  start(waiting: WaitingWork): void {
    this.#started = true;
    if (waiting.votes) this.wakeVotes();
    if (waiting.reviews) this.wakeReviews();
    for (const channelId of waiting.channels) this.wakeChannel(channelId);
  }

  async stop(): Promise<void> {
    this.#started = false;
    await Promise.all([
      this.#unannouncedLoop?.stop(),
      ...[...(this.#lanes?.values() ?? [])].map((lane) => lane.stop()),
    ]);
  }

  #lane(channelId: string): ChannelLane {
    let lane = this.#lanes?.get(channelId);
    if (lane) return lane;
    const { store, poster, logger, now, i18n, names } = this.options;
    lane = new ChannelLane({
      channelId,
      store,
      poster,
      logger,
      now,
      i18n,
      names,
      sources: this.#sourcesFor(channelId),
      reviewOrigin: this.options.reviewOrigin,
      onParked: (id, failure) => this.#parked(id, failure),
      onResumed: (id) => logger.info({ channelId: id }, 'Discord takes posts in the channel again; posting resumed'),
      spacingMs: this.options.lane?.spacingMs,
      probeMs: this.options.lane?.probeMs,
    });
    (this.#lanes ??= new Map()).set(channelId, lane);
    return lane;
  }

  #sourcesFor(channelId: string): PostSource[] {
    const { store, now, i18n, names, voteChannelId, reviewChannelId } = this.options;
    const sources: PostSource[] = [];
    if (channelId === voteChannelId)
      sources.push(
        voteSource({
          store,
          now,
          i18n,
          names,
          gatherMs: this.options.lane?.gatherMs,
          templates: this.options.templates,
          serverName: this.options.serverName,
          serverSites: this.options.serverSites,
        }),
      );
    if (channelId === reviewChannelId)
      sources.push(reviewSource({ store, now, i18n, names, originOf: this.options.reviewOrigin }));
    return sources;
  }

  #settingsFor(channelId: string): string[] {
    const { voteChannelId, reviewChannelId } = this.options;
    return [
      ...(channelId === reviewChannelId ? [SETTING.reviews] : []),
      ...(channelId === voteChannelId ? [SETTING.votes] : []),
    ];
  }

  /** Said once per refusal, with the fix: in the log, and in the audit channel unless that is the one refused. */
  async #parked(channelId: string, failure: Extract<Failure, { kind: 'refused' }>): Promise<void> {
    const { logger, poster, auditChannelId, i18n } = this.options;
    const settings = this.#settingsFor(channelId);
    const fix =
      failure.reason === 'unknown'
        ? `the channel no longer exists: set ${settings.join(' / ') || 'the channel setting'} to a channel that exists`
        : "give the bot's role View Channel, Send Messages and Embed Links in that channel (Edit Channel → Permissions)";
    logger.error(
      { channelId, settings, status: failure.status, code: failure.code },
      `Discord refuses posts in a channel (${failure.status}); they wait there. Fix: ${fix}. Posting resumes by itself once fixed.`,
    );
    if (auditChannelId === channelId) return;
    const key = failure.reason === 'unknown' ? 'feed.parked.unknown' : 'feed.parked.access';
    await tellAuditChannel(poster, {
      channelId: auditChannelId,
      body: textBody(i18n().t(key, { channel: `<#${channelId}>`, setting: settings.join(' / ') })),
      logger,
      failedLine: 'could not tell the audit channel that a channel refuses posts',
    });
  }

  async #markUnannounced(): Promise<void> {
    const { store, now } = this.options;
    for (;;) {
      const votes = await store.waitingVotes(500);
      if (votes.length === 0) return;
      await store.markAnnounced(
        votes.map((vote) => vote.id),
        null,
        now(),
      );
    }
  }
}
