import type { ShardSet } from '../shards/ownership.js';

/** This process's claim to act on a store; released last on shutdown, so a standby never overlaps. */
export interface StoreLock {
  release(): Promise<void>;
}

export interface HoldOptions {
  /** Called when the store is held elsewhere (PostgreSQL) or not reachable yet, each time that changes. */
  onStandby(reason: StandbyReason): void;
  /** Called once if the lock is lost while held: another process took it after the database came back. */
  onLost(error: unknown): void;
  /**
   * The connection holding the lock dropped (the database restarted or went away): nothing can be
   * stored meanwhile, and the holder takes the lock back the moment the database answers; `regained`
   * says when it has.
   */
  onInterrupted?(event: { kind: 'dropped'; error: unknown } | { kind: 'regained'; afterMs: number }): void;
  /**
   * On PostgreSQL: the shards this process runs, each held by one process at a time. Without
   * them, the whole store (as a bot with one shard in one process).
   */
  shards?: ShardSet;
  /** Gives up waiting (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
}

/** 'count': another process runs another SHARD_COUNT, a setting to fix rather than a turn to wait for. */
export type StandbyReason =
  | { kind: 'held'; detail: string }
  | { kind: 'count'; detail: string }
  | { kind: 'unreachable'; detail: string; retryInMs: number };
