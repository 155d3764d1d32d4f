import { connect, type Socket } from 'node:net';

/** What a stranger who reaches the receiver's port does to it: for tests and the bench. */

export interface IdleConnections {
  /** Connections that were accepted (connected) at all. */
  readonly opened: number;
  /** How many are still open now. */
  stillOpen(): number;
  /** Milliseconds from opening to being closed by the server, for those it closed. */
  closedAfterMs(): number[];
  /** Resolves once the server has closed every one, or rejects after `timeoutMs`. */
  allClosed(timeoutMs: number): Promise<void>;
  destroy(): void;
}

/**
 * Opens `count` TCP connections to the URL's host and port and sends nothing on them. They are
 * opened in batches so the listen backlog does not overflow and stall the opening itself.
 */
export async function holdIdleConnections(url: string, count: number, batch = 250): Promise<IdleConnections> {
  const { hostname, port } = new URL(url);
  const sockets: Array<{ socket: Socket; openedAt: number; closedAt?: number }> = [];
  /** Checked at each close. */
  const waiters = new Set<() => void>();
  let opened = 0;
  for (let start = 0; start < count; start += batch) {
    const size = Math.min(batch, count - start);
    await Promise.all(
      Array.from(
        { length: size },
        () =>
          new Promise<void>((resolve) => {
            const entry: { socket: Socket; openedAt: number; closedAt?: number } = {
              socket: connect(Number(port), hostname),
              openedAt: performance.now(),
            };
            sockets.push(entry);
            entry.socket.on('connect', () => {
              opened += 1;
              resolve();
            });
            // A closed connection is what the test looks for; reading keeps 'close' coming after the server's FIN.
            entry.socket.on('data', () => undefined);
            entry.socket.on('error', () => resolve());
            entry.socket.on('close', () => {
              entry.closedAt = performance.now();
              resolve();
              for (const check of [...waiters]) check();
            });
          }),
      ),
    );
  }
  const stillOpen = () => sockets.filter((s) => s.closedAt === undefined).length;
  return {
    opened,
    stillOpen,
    closedAfterMs: () => sockets.flatMap((s) => (s.closedAt === undefined ? [] : [s.closedAt - s.openedAt])),
    allClosed: (timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (stillOpen() > 0) return;
          settle();
          resolve();
        };
        // A deadline, not a wait: it only turns "never closed" into a failure that says so.
        const timer = setTimeout(() => {
          settle();
          reject(new Error(`${stillOpen()} of ${sockets.length} idle connections still open after ${timeoutMs} ms`));
        }, timeoutMs);
        const settle = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    destroy: () => sockets.forEach((s) => s.socket.destroy()),
  };
}

export interface TrickleOutcome {
  /** The status line the server answered with, or undefined when it closed without one. */
  status: number | undefined;
  /** From the headers being sent to the answer or the close. */
  ms: number;
}

/**
 * A POST whose body comes slower than its declared length: the headers at once, then one byte every
 * `everyMs`, never reaching `declaredBytes`. Resolves when the server answers or closes.
 */
export function trickleBody(
  url: string,
  token: string,
  { declaredBytes = 200, everyMs = 200, giveUpMs = 60_000 } = {},
): Promise<TrickleOutcome> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let started = performance.now();
    let answer = '';
    // The slowness is the subject: a byte every everyMs, whatever the server does.
    const ticker = setInterval(() => socket.writable && socket.write('{'), everyMs);
    const finish = () => {
      clearInterval(ticker);
      clearTimeout(stop);
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      resolve({ status: match ? Number(match[1]) : undefined, ms: performance.now() - started });
    };
    // A deadline, not a wait: a server that never answers nor closes ends the attempt here.
    const stop = setTimeout(finish, giveUpMs);
    socket.on('connect', () => {
      started = performance.now();
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${declaredBytes}\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) finish();
    });
    socket.on('error', () => undefined);
    socket.on('close', finish);
  });
}

/** One trickling connection: when it opened and closed, and the status the server answered, if any. */
interface Trickler {
  readonly openedAt: number;
  closedAt?: number;
  /** The status line's code; undefined while nothing came, or when it was closed without an answer. */
  status?: number;
}

export interface TricklingFlood {
  /** Every connection opened so far, replacements included. */
  readonly tricklers: readonly Trickler[];
  /** Resolves once the server has closed `count` of them, or rejects after `timeoutMs`. */
  closed(count: number, timeoutMs: number): Promise<void>;
  /** Opens no more replacements, then resolves once the server has closed every connection, or rejects after `timeoutMs`. */
  allClosed(timeoutMs: number): Promise<void>;
  destroy(): void;
}

/**
 * A slowloris: `count` connections to the URL's host and port, each sending its request a little at
 * a time and never finishing it (half trickle their headers, half a POST body shorter than its
 * length). Each one the server answers and closes is replaced by a new one, so the server stays as
 * full as it lets itself be until `allClosed` is called. Resolves once the first `count` have connected
 * (or been closed at once).
 */
export async function trickleFlood(
  url: string,
  count: number,
  { path = '/logout', everyMs = 250, batch = 250 } = {},
): Promise<TricklingFlood> {
  const { hostname, port } = new URL(url);
  const tricklers: Trickler[] = [];
  const sockets = new Map<Socket, string>();
  const waiters = new Set<() => void>();
  let refilling = true;
  // The slowness is the subject: a piece every everyMs, whatever the server does.
  const ticker = setInterval(() => {
    // Not before its request line: a piece queued while it still connects would go first (a 400, not a 408).
    for (const [socket, next] of sockets) if (socket.writable && !socket.connecting) socket.write(next);
  }, everyMs);

  const open = (index: number): Promise<void> =>
    new Promise<void>((connected) => {
      const body = index % 2 === 1;
      const socket = connect(Number(port), hostname);
      const trickler: Trickler = { openedAt: performance.now() };
      tricklers.push(trickler);
      sockets.set(socket, body ? 'a' : 'X-Slow: 1\r\n');
      let answer = '';
      socket.on('connect', () => {
        socket.write(
          body
            ? `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 300\r\n\r\n`
            : `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n`,
        );
        connected();
      });
      socket.on('data', (chunk: Buffer) => {
        answer += chunk.toString('latin1');
        const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
        if (match) trickler.status = Number(match[1]);
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        trickler.closedAt = performance.now();
        sockets.delete(socket);
        connected();
        // Only an answered one is replaced: one closed unanswered was refused at the door, and
        // replacing it would only spin.
        if (refilling && trickler.status !== undefined) void open(index);
        for (const wake of waiters) wake();
      });
    });

  /** Resolves when `done` holds, checked at each close; rejects after `timeoutMs` with what is still open. */
  const until = (done: () => boolean, timeoutMs: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const check = () => done() && finish(resolve);
      // A deadline, not a wait: it only turns "never closed" into a failure that says so.
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new Error(
                `${sockets.size} of ${tricklers.length} trickling connections still open after ${timeoutMs} ms`,
              ),
            ),
          ),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    });

  for (let start = 0; start < count; start += batch)
    await Promise.all(Array.from({ length: Math.min(batch, count - start) }, (_, i) => open(start + i)));

  return {
    tricklers,
    closed: (wanted, timeoutMs) => until(() => tricklers.length - sockets.size >= wanted, timeoutMs),
    async allClosed(timeoutMs) {
      refilling = false;
      try {
        await until(() => sockets.size === 0, timeoutMs);
      } finally {
        clearInterval(ticker);
      }
    },
    destroy() {
      refilling = false;
      clearInterval(ticker);
      for (const socket of sockets.keys()) socket.destroy();
    },
  };
}
