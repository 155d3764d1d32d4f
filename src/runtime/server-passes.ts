import type { Config } from '../config/bot.js';
import type { Logger } from '../core/log.js';
import { RedrawSweep } from '../feeds/redraw-sweep.js';
import { ListReminders } from '../reminders/list-reminders.js';
import { MilestoneChecks } from '../roles/milestone-checks.js';
import { ExpirySweep } from '../schedule/expiry-sweep.js';
import { Limiter } from '../work/limiter.js';
import { Timetable } from '../work/timetable.js';
import type { SweepStore, WaitingWork } from '../store/index.js';

/** What the process read for every server at once before starting them. */
export interface ServerStartFacts {
  /** Posts, redraws, votes and reviews waiting for the server's channels. */
  waiting: WaitingWork;
  /** The server has no milestones: no pass reads them at start. */
  noMilestones: boolean;
}

/**
 * The passes a process runs once for all its servers, where each server had its own timers and
 * reads: the expiry schedule's firing and reconciles, reminders per list, milestone checks. With
 * thousands of servers a process, per-server passes at start queued tens of thousands of reads
 * ahead of every member's command and every webhook's post.
 */
export interface ServerPasses {
  readonly expiries: ExpirySweep;
  readonly reminders: ListReminders;
  readonly milestones: MilestoneChecks;
  /** Feed posts another process (the HTTP endpoint, the dashboard) left to redraw, found for every server. */
  readonly redraws: RedrawSweep;
  /** Every server's polls of the service, on one timer. */
  readonly polls: Timetable;
  /**
   * A poll's store work, a few servers' at a time: thousands of servers' first polls at once took
   * every connection of the pool, and the members' commands and the deliveries met checkout timeouts
   * (50,000 servers on two cores: polls retried, a third of the CPU in collections, no post made).
   */
  readonly pollWrites: Limiter;
  /** What servers about to start need to know, read for all of them at once. */
  facts(): Promise<(guildId: string) => ServerStartFacts>;
  start(): void;
  /** After every server's runtime has stopped. */
  stop(): Promise<void>;
}

const NOTHING_WAITING: WaitingWork = { channels: [], votes: false, reviews: false };

export function serverPasses(options: {
  store: SweepStore;
  logger: Logger;
  now?: () => number;
  /**
   * EXPIRY_CHECK_SECONDS: reconciles, reminder passes and milestone checks; DATABASE_POOL_SIZE: polls
   * write over one connection fewer, left to members' commands and deliveries.
   */
  config: Pick<Config, 'expiryCheckMs' | 'databasePoolSize'>;
}): ServerPasses {
  const { store, logger } = options;
  const checkMs = options.config.expiryCheckMs;
  const now = options.now ?? (() => Date.now());
  const expiries = new ExpirySweep({ store, logger, now, reconcileMs: checkMs });
  const reminders = new ListReminders({ store, logger, now, checkMs });
  const milestones = new MilestoneChecks(checkMs);
  const polls = new Timetable(now);
  const pollWrites = new Limiter(Math.max(1, options.config.databasePoolSize - 1));
  const redraws = new RedrawSweep({ store, logger });
  return {
    expiries,
    reminders,
    milestones,
    redraws,
    polls,
    pollWrites,
    async facts() {
      const [waiting, withMilestones] = await Promise.all([store.workWaitingAll(), store.serversWithMilestones()]);
      return (guildId) => ({
        waiting: waiting.get(guildId) ?? NOTHING_WAITING,
        noMilestones: !withMilestones.has(guildId),
      });
    },
    start() {
      reminders.start();
      redraws.start();
    },
    async stop() {
      milestones.stop();
      polls.stop();
      await Promise.all([expiries.stop(), reminders.stop(), redraws.stop()]);
    },
  };
}
