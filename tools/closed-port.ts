import { createServer } from 'node:net';

// A port the kernel chose (listen on 0) is one it also hands out as the local end of connections
// and to other listen(0) calls: released, it can be taken before the child process listens on it
// (a loaded npm test saw a bot refuse its WEBHOOK_PORT with EADDRINUSE). So the ports come from
// below Linux's ephemeral range (32768-60999), which the kernel never hands out, a block for each
// Jest worker so that workers never pick the same one, tried in turn from a random start.
const FIRST = 20_000;
const BLOCK = 1_000;
const BLOCKS = 12;
let next = Math.floor(Math.random() * BLOCK);

/** A loopback port nobody listens on, which the kernel will not hand to anyone else meanwhile. */
export async function closedPort(): Promise<number> {
  const base = FIRST + (Number(process.env.JEST_WORKER_ID ?? 0) % BLOCKS) * BLOCK;
  for (let tried = 0; tried < BLOCK; tried++) {
    const port = base + (next++ % BLOCK);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free loopback port in ${base}-${base + BLOCK - 1}`);
}

function isFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
