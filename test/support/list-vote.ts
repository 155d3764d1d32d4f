import type { NewVote } from '../../src/store/index.js';

const HOUR = 3_600_000;

/** A list's webhook vote as the ledger takes it: one vote, running 12 hours from `at`. */
export const listVote = (userId: string, site: string, at: number, extra: Partial<NewVote> = {}): NewVote => ({
  userId,
  at,
  double: false,
  source: 'webhook',
  periodEndsAt: at + 12 * HOUR,
  site,
  ...extra,
});
