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
    async allClosed(timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      while (stillOpen() > 0) {
        if (performance.now() > deadline)
          throw new Error(`${stillOpen()} of ${sockets.length} idle connections still open after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
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
    const ticker = setInterval(() => socket.writable && socket.write('{'), everyMs);
    const finish = () => {
      clearInterval(ticker);
      clearTimeout(stop);
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      resolve({ status: match ? Number(match[1]) : undefined, ms: performance.now() - started });
    };
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
