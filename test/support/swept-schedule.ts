import { ExpirySchedule, type ExpiryScheduleOptions } from '../../src/schedule/expiry-schedule.js';
import { ExpirySweep } from '../../src/schedule/expiry-sweep.js';
import type { SweepStore } from '../../src/store/index.js';

/**
 * A server's expiry schedule with a process's expiry pass of its own over `root`, as the bot runs
 * it; its stop() stops the pass too.
 */
export function sweptSchedule(root: SweepStore, options: Omit<ExpiryScheduleOptions, 'pass'>): ExpirySchedule {
  const { logger, now, reconcileMs } = options;
  const sweep = new ExpirySweep({ store: root, logger, now, reconcileMs });
  const schedule = new ExpirySchedule({ ...options, pass: sweep });
  const stop = schedule.stop.bind(schedule);
  schedule.stop = async () => {
    await stop();
    await sweep.stop();
  };
  return schedule;
}
