import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { INBOX_CHANNEL } from '../../src/store/inbox-channel.js';
import { LISTENER_APPLICATION_NAME, listenForEvents, type InboxListener } from '../../src/store/inbox-listener.js';
import { openStore, type StoreRoot } from '../../src/store/index.js';
import { InboxWorker } from '../../src/runtime/inbox-worker.js';
import { capturedLog } from '../support/captured-log.js';
import { pollUntil } from '../support/poll-until.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';

const A = '111111111111111111';
const B = '222222222222222222';
const FAST = { baseMs: 50, capMs: 200 };

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** The state these wait on (a callback's record, a store's mark) sends no event of its own. */
const until = (check: () => boolean, ms: number, what: string) =>
  pollUntil(check, what, { timeoutMs: ms, everyMs: 10 });

describe('a stored webhook event wakes the process that handles it', () => {
  const real = () => server.kind === 'postgres';
  let root: StoreRoot;
  let url: string;
  const listeners: InboxListener[] = [];
  beforeAll(async () => {
    url = await server.createDatabase();
    root = await openStore({ kind: 'postgres', url });
  });
  afterAll(async () => {
    await Promise.all(listeners.map((l) => l.stop()));
    await root?.close();
  });

  function listen() {
    const heard: string[] = [];
    const listening: boolean[] = [];
    const drops: number[] = [];
    listeners.push(
      listenForEvents({
        url,
        onEvent: (guildId) => heard.push(guildId),
        onListening: (again) => listening.push(again),
        onDropped: (_err, retryInMs) => drops.push(retryInMs),
        backoff: FAST,
        heartbeatMs: 100,
      }),
    );
    return { heard, listening, drops };
  }

  it('announces each stored event with its server id alone, once the row is committed', async () => {
    if (!real()) return;
    const { heard, listening } = listen();
    await until(() => listening.length === 1, 5_000, 'the listener');
    // A raw listener sees the whole payload: the server id and nothing of the delivery.
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    const payloads: string[] = [];
    raw.on('notification', (m) => payloads.push(m.payload ?? ''));
    await raw.query(`LISTEN ${INBOX_CHANNEL}`);

    const id = await root.addEvent(A, 'vote', { event: 'vote', guildId: A, token: 'x' }, Date.now());
    await root.addEvent(B, 'review', { event: 'review', guildId: B }, Date.now());
    await until(() => heard.length === 2 && payloads.length === 2, 2_000, 'two notifications');
    expect(heard).toEqual([A, B]);
    expect(payloads).toEqual([A, B]);
    // The notification never runs ahead of the row: whoever hears it finds the event.
    expect((await root.pendingEvents(10)).map((e) => e.id)).toContain(id);
    await raw.end();
  });

  it('reconnects after its connection is cut, says it listens again, and hears the next event', async () => {
    if (!real()) return;
    const { heard, listening, drops } = listen();
    await until(() => listening.length === 1, 5_000, 'the listener');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [LISTENER_APPLICATION_NAME],
    );
    await admin.end();
    await until(() => drops.length >= 1, 5_000, 'the drop to be noticed');
    await until(() => listening.length === 2, 5_000, 'the listener to come back');
    expect(listening).toEqual([false, true]);
    expect(drops.every((ms) => ms <= FAST.capMs)).toBe(true);
    await root.addEvent(A, 'vote', { event: 'vote', guildId: A }, Date.now());
    await until(() => heard.includes(A), 2_000, 'the event after the reconnect');
  });
});

describe('the inbox poll, the safety net behind the wake-up', () => {
  it('handles an event stored by another process with no wake-up, within the poll interval', async () => {
    const url = server.kind === 'postgres' ? await server.createDatabase() : undefined;
    const root = await openStore(url ? { kind: 'postgres', url } : { kind: 'sqlite', file: ':memory:' });
    const handled: number[] = [];
    // The real store, counting the reads of pending events that came back.
    let reads = 0;
    const store: ConstructorParameters<typeof InboxWorker>[0]['store'] = {
      pendingEvents: async (...args) => {
        const pending = await root.pendingEvents(...args);
        reads += 1;
        return pending;
      },
      deferEvent: (...args) => root.deferEvent(...args),
      nextEventDue: (...args) => root.nextEventDue(...args),
      dropHandledEvents: (...args) => root.dropHandledEvents(...args),
      markEventsHandled: (...args) => root.markEventsHandled(...args),
    };
    const worker = new InboxWorker({
      store,
      logger: capturedLog().logger,
      handler: { handle: async (event) => void handled.push(event.id) },
      pollMs: 300,
    });
    try {
      worker.wake();
      // The wake's own drain has read and found nothing: only the poll can find what comes next.
      await until(() => reads > 0, 2_000, "the wake's drain");
      const id = await root.addEvent(A, 'vote', { event: 'vote', guildId: A }, Date.now());
      const stored = Date.now();
      await until(() => handled.includes(id), 5_000, 'the poll to find the event');
      // Ten polls' worth: room for a loaded machine, far below any wait without the poll.
      expect(Date.now() - stored).toBeLessThan(3_000);
    } finally {
      await worker.stop();
      await root.close();
    }
  });
});

describe('the inbox worker marks what it handled', () => {
  it('marks a drained batch handled in one call after each handler finished; a failed one waits its retry', async () => {
    const url = server.kind === 'postgres' ? await server.createDatabase() : undefined;
    const root = await openStore(url ? { kind: 'postgres', url } : { kind: 'sqlite', file: ':memory:' });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await root.addEvent(A, 'vote', { event: 'vote', guildId: A, i }, 1_000));
    const failing = ids[2]!;
    const marks: number[][] = [];
    const handled: number[] = [];
    const store: ConstructorParameters<typeof InboxWorker>[0]['store'] = {
      pendingEvents: (...args) => root.pendingEvents(...args),
      deferEvent: (...args) => root.deferEvent(...args),
      nextEventDue: (...args) => root.nextEventDue(...args),
      dropHandledEvents: (...args) => root.dropHandledEvents(...args),
      async markEventsHandled(batch, at) {
        // Each one marked had its handler finished before the mark.
        expect(batch.every((id) => handled.includes(id))).toBe(true);
        marks.push([...batch]);
        await root.markEventsHandled(batch, at);
      },
    };
    const worker = new InboxWorker({
      store,
      logger: capturedLog().logger,
      handler: {
        handle: async (event) => {
          if (event.id === failing) throw new Error('not yet');
          handled.push(event.id);
        },
      },
      backoff: { baseMs: 60_000, capMs: 60_000 },
    });
    try {
      worker.wake();
      await until(() => marks.length > 0, 2_000, 'the batch to be marked');
      expect(marks).toEqual([ids.filter((id) => id !== failing)]);
      // What is left pending is the failed one, waiting its backoff.
      const pending = await root.pendingEvents(10);
      expect(pending.map((event) => [event.id, event.attempts])).toEqual([[failing, 1]]);
    } finally {
      await worker.stop();
      await root.close();
    }
  });
});
