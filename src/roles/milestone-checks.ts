import type { MilestoneCheckPass, MilestoneRoles } from './milestone-roles.js';

/**
 * Every checkMs, each server with milestones has its holders checked against Discord and its parked
 * roles tried again: one timer for a process's servers. Most servers have no milestones; they are
 * skipped without a store read.
 */
export class MilestoneChecks implements MilestoneCheckPass {
  readonly #roles = new Map<string, MilestoneRoles>();
  readonly #timer: NodeJS.Timeout;

  constructor(checkMs: number) {
    this.#timer = setInterval(() => {
      for (const roles of this.#roles.values()) if (roles.hasMilestones) roles.check();
    }, checkMs);
    this.#timer.unref();
  }

  join(roles: MilestoneRoles): void {
    this.#roles.set(roles.guildId, roles);
  }

  leave(roles: MilestoneRoles): void {
    if (this.#roles.get(roles.guildId) === roles) this.#roles.delete(roles.guildId);
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
