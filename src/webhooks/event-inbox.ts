/**
 * Told that an event was stored (by this process's receiver, or another's NOTIFY): it looks at the
 * store now. The receiver's hand-off; in the bot, runtime/inbox-worker.ts behind it.
 */
export interface EventInbox {
  wake(): void;
}
