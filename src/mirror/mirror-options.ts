import type { ServiceClient } from '../api/index.js';
import type { Logger } from '../core/log.js';
import type { MirrorStore, VoteLedger } from '../store/index.js';
import type { BackoffPolicy } from '../work/backoff.js';
import type { Limiter } from '../work/limiter.js';
import type { Timetable } from '../work/timetable.js';
import type { VoteSink } from './vote-sink.js';

/**
 * How long a vote period is taken to last until the service says otherwise (Guilds' votes run
 * 12 hours); a refresh or poll replaces it with the real expiry.
 */
export const ASSUMED_VOTE_PERIOD_MS = 12 * 3_600_000;
/** An end within this of a known one is the same end (the service's remaining time moves by rounding and latency). */
export const SAME_VOTE_END_MS = 1_000;
/** A failed poll or refresh is tried again after 1 s, doubling to 30 s (a poll never later than its interval). */
export const MIRROR_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 30_000 };

export interface VoteMirrorOptions {
  /** The mirror, and the votes a poll records. */
  store: MirrorStore &
    Pick<VoteLedger, 'acceptVotes' | 'runningVotes' | 'setPeriodEnd' | 'setPeriodEnds' | 'unconfirmedVoters'>;
  api: ServiceClient;
  logger: Logger;
  /** VOTE_POLL_SECONDS in ms; 0 turns polling off (webhook refreshes still run). */
  pollMs: number;
  /** The process's one timer for every server's polls, and this server's key in it (alone: its own). */
  timetable?: Timetable;
  key?: string;
  /** Turns for a poll's store work, shared by the process's servers (alone: none to wait for). */
  writeTurns?: Pick<Limiter, 'run'>;
  now: () => number;
  /**
   * Where the votes the mirror finds go: those a poll found that no webhook reported (accepted), a
   * running vote a refresh saw (running) or a `/vote` answer showed (seen), a poll's whole list (polled).
   */
  votes: Pick<VoteSink, 'accepted' | 'running' | 'seen' | 'polled'>;
  /** The server's streak grace window (votes the poll finds continue streaks like delivered ones). */
  streakGraceMs?: number;
}
