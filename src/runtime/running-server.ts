import type { BotContext } from './context.js';
import type { Lanes } from '../feeds/lanes.js';
import type { VoteMirror } from '../mirror/vote-mirror.js';
import type { VoteReminder } from '../reminders/vote-reminder.js';
import type { MilestoneRoles } from '../roles/milestone-roles.js';
import type { ExpirySchedule } from '../schedule/expiry-schedule.js';
import type { ServerSettings } from '../servers/server-settings.js';
import type { ServerPasses, ServerStartFacts } from './server-passes.js';
import type { HandledOutcome, RoutedEvent } from './event-route.js';

/** Everything one set-up server runs: its feed and lanes, mirror, schedule, role and reminders. */
export interface ServerRuntime {
  readonly guildId: string;
  readonly settings: ServerSettings;
  /** The context every handler of this server's interactions gets; made once. */
  readonly context: BotContext;
  /** A milestone was set or removed with /setup: every member is checked against it now. */
  milestonesChanged(): void;
  /** Does what one of this server's stored webhook events (or a vote read back from a list) asks; says whether it was new. */
  handle(event: RoutedEvent): Promise<HandledOutcome>;
  /** Discord is connected: post what waits, poll, join the process's passes. */
  start(facts: ServerStartFacts): void;
  stop(): Promise<void>;
}

/** The parts a started server runs, made by startServerRuntime. */
export interface RunningParts {
  lanes: Lanes;
  mirror: VoteMirror;
  schedule: ExpirySchedule;
  milestones: MilestoneRoles;
  reminder: VoteReminder;
  passes: ServerPasses;
  now: () => number;
  /** Where in the poll interval this server's polls fall. */
  firstPollAfterMs: number;
}

/**
 * A started server's runtime. A class, not an object literal: a literal with a getter was kept as a
 * dictionary, about 450 B of property table for each server a process runs.
 */
export class RunningServer implements ServerRuntime {
  readonly guildId: string;
  #context: BotContext | undefined;
  #started = false;

  constructor(
    readonly settings: ServerSettings,
    readonly handle: ServerRuntime['handle'],
    private readonly makeContext: () => BotContext,
    private readonly parts: RunningParts,
  ) {
    this.guildId = settings.guildId;
  }

  get context(): BotContext {
    return (this.#context ??= this.makeContext());
  }

  milestonesChanged(): void {
    this.parts.milestones.check();
  }

  start(facts: ServerStartFacts): void {
    if (this.#started) return;
    this.#started = true;
    const { lanes, mirror, schedule, milestones, reminder, passes } = this.parts;
    lanes.start(facts.waiting);
    mirror.start(this.parts.now() + this.parts.firstPollAfterMs);
    schedule.start();
    passes.reminders.join(this.guildId, reminder);
    passes.redraws.join(this.guildId, lanes);
    milestones.start(facts.noMilestones);
  }

  async stop(): Promise<void> {
    const { lanes, mirror, schedule, milestones, reminder, passes } = this.parts;
    passes.reminders.leave(this.guildId, reminder);
    passes.redraws.leave(this.guildId, lanes);
    await Promise.all([lanes.stop(), mirror.stop(), schedule.stop(), milestones.stop()]);
  }
}
