import { createServer, type Socket } from 'node:net';

export interface ConnectionCounter {
  /** Connections made to the port so far. */
  readonly count: number;
  /** Resolves once `count` reaches `atLeast`. */
  waitFor(atLeast: number, timeoutMs: number, what: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens on the port of a server that went away and closes every connection unanswered, counting
 * them: a client's attempts to reach what is gone (reconnects, polls) become events a test can wait
 * for, where it could otherwise only wait a while and hope some attempts were made.
 */
export async function countConnections(port: number, host = '127.0.0.1'): Promise<ConnectionCounter> {
  let count = 0;
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.destroy();
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    get count() {
      return count;
    },
    waitFor(atLeast, timeoutMs, what) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (count < atLeast) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${count} of ${atLeast})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
