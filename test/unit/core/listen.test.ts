import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { FatalStartError } from '../../../src/core/exit-codes.js';
import { hostInUrl, listen, ListenError } from '../../../src/core/listen.js';

const servers: Server[] = [];
const server = () => {
  const made = createServer((_req, res) => res.end('here'));
  servers.push(made);
  return made;
};

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A port something already listens on. */
async function takenPort(): Promise<number> {
  return (await listen(server(), 0, '127.0.0.1')).port;
}

describe('listen', () => {
  it('resolves with the address it got, port 0 picking a free one, and the server answers there', async () => {
    const address = await listen(server(), 0, '127.0.0.1');
    expect(address).toMatchObject({ address: '127.0.0.1', family: 'IPv4' });
    expect(address.port).toBeGreaterThan(0);
    expect(await (await fetch(`http://127.0.0.1:${address.port}/`)).text()).toBe('here');
  });

  it("rejects with Node's own error when the port is taken and no advice is given", async () => {
    const port = await takenPort();
    const failed = await listen(server(), port, '127.0.0.1').catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: 'EADDRINUSE' });
    expect(failed).not.toBeInstanceOf(ListenError);
  });

  it('rejects with the advice as a start failure, given the reason, when the port is taken', async () => {
    const port = await takenPort();
    const failed = await listen(
      server(),
      port,
      '127.0.0.1',
      (reason) => `Could not serve /x on 127.0.0.1:${port} (${reason}): choose a free X_PORT.`,
    ).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ListenError);
    expect(failed).toBeInstanceOf(FatalStartError);
    expect(failed).toMatchObject({
      message: `Could not serve /x on 127.0.0.1:${port} (EADDRINUSE): choose a free X_PORT.`,
      code: 'EADDRINUSE',
      exitCode: 78,
    });
  });

  it('rejects, rather than throws, for a port Node refuses before trying it', async () => {
    const failed = listen(server(), 70_000, '127.0.0.1', (reason) => `Could not use 70000 (${reason}).`);
    await expect(failed).rejects.toMatchObject({ message: 'Could not use 70000 (ERR_SOCKET_BAD_PORT).' });
  });

  it('leaves no error listener behind once it listens', async () => {
    const listening = server();
    await listen(listening, 0, '127.0.0.1');
    expect(listening.listenerCount('error')).toBe(0);
  });
});

describe('hostInUrl', () => {
  it('puts an IPv6 address in brackets and leaves names and IPv4 addresses as they are', () => {
    expect(hostInUrl('::1')).toBe('[::1]');
    expect(hostInUrl('0.0.0.0')).toBe('0.0.0.0');
    expect(hostInUrl('localhost')).toBe('localhost');
  });
});
