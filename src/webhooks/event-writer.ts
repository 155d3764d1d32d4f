import type { EventStore, NewEvent } from '../store/index.js';

/** Inserts in flight at once; deliveries that come meanwhile wait and go in the next one together. */
const WRITES_AT_ONCE = 2;
/** Rows one insert carries at most. */
const EVENTS_PER_WRITE = 200;

interface Waiting {
  event: NewEvent;
  resolve: (id: number) => void;
  reject: (err: unknown) => void;
}

/**
 * The receiver's writes to the inbox, grouped: a delivery that comes while WRITES_AT_ONCE inserts
 * are in flight goes in the next insert with every other one waiting, so a burst costs the store
 * one round trip and one commit per group, not per delivery (one each held ingest to about 400/s on
 * 4 connections under load). A lone delivery is written at once, as before. Each delivery's promise
 * settles with its own group's insert, so the receiver answers 200 only once its event is stored.
 */
export class EventWriter {
  #waiting: Waiting[] = [];
  #inFlight = 0;

  constructor(private readonly store: Pick<EventStore, 'addEvents'>) {}

  addEvent(guildId: string, kind: string, payload: unknown, receivedAt: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.#waiting.push({ event: { guildId, kind, payload, receivedAt }, resolve, reject });
      this.#write();
    });
  }

  #write(): void {
    while (this.#inFlight < WRITES_AT_ONCE && this.#waiting.length > 0) {
      const group = this.#waiting.splice(0, EVENTS_PER_WRITE);
      this.#inFlight += 1;
      // Async so that a store throwing at once fails its group like any other failed write.
      void (async () => this.store.addEvents(group.map((waiting) => waiting.event)))()
        .then(
          (ids) => group.forEach((waiting, i) => waiting.resolve(ids[i]!)),
          (err: unknown) => group.forEach((waiting) => waiting.reject(err)),
        )
        .finally(() => {
          this.#inFlight -= 1;
          this.#write();
        });
    }
  }
}
