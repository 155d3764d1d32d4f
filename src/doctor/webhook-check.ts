import { connect, createServer } from 'node:net';
import { listen } from '../core/listen.js';
import { fail, pass, skip, type Check } from './check.js';
import { portHolder } from './port-holder.js';

/**
 * The receiver's settings: its port free, or held by the running bot (told by its process, never
 * assumed), its token, its public URL.
 */
export const webhookCheck: Check = {
  name: 'webhook receiver (WEBHOOK_PORT)',
  async run({ config }) {
    if (!config) return skip('the configuration does not parse.');
    const webhook = config.webhook;
    if (!webhook) return pass('not set; votes and reviews come by polling only.');
    const host = webhook.host ?? '0.0.0.0';
    const port = await portState(host, webhook.port);
    if (port.state === 'refused')
      return fail(
        `WEBHOOK_PORT ${webhook.port} on ${host} cannot be listened on (${port.cause}).`,
        'pick a port above 1023 that nothing else uses, or run the bot with the right to bind it.',
      );
    let listening = `port ${webhook.port} is free`;
    if (port.state === 'taken') {
      const holder = portHolder(webhook.port);
      if (!holder?.isBot)
        return fail(
          `port ${webhook.port} is taken by ${holder ? `${holder.name} (pid ${holder.pid})` : 'another process (the doctor cannot tell which)'}, so the bot could not start.`,
          holder
            ? 'stop that process, or set WEBHOOK_PORT to a port nothing uses.'
            : 'stop what holds it (ss -ltnp shows it), or set WEBHOOK_PORT to a port nothing uses; if it is the bot running as another user, run the doctor as that user.',
        );
      listening = `the bot (pid ${holder.pid}) listens on port ${webhook.port}`;
    }
    const token =
      webhook.token === undefined
        ? 'tokens are set per server with /setup webhook'
        : `WEBHOOK_TOKEN is ${webhook.token.length} characters`;
    if (webhook.publicUrl === undefined) return pass(`${listening}; ${token}; WEBHOOK_PUBLIC_URL not set.`);
    const url = new URL(webhook.path, webhook.publicUrl).toString();
    const reached = await reach(url);
    if (!reached.ok)
      return fail(
        `${listening}; ${token}; WEBHOOK_PUBLIC_URL ${url} is not reachable from here (${reached.cause}).`,
        'check WEBHOOK_PUBLIC_URL, the proxy in front of the receiver and its TLS certificate; Guilds must reach it.',
      );
    return pass(`${listening}; ${token}; WEBHOOK_PUBLIC_URL ${url} answers (HTTP ${reached.status}).`);
  },
};

/** Free when a listen succeeds (closed at once); taken when something answers a connection there. */
async function portState(
  host: string,
  port: number,
): Promise<{ state: 'free' } | { state: 'taken' } | { state: 'refused'; cause: string }> {
  const server = createServer();
  const listened = await listen(server, port, host).then(
    () => new Promise<undefined>((resolve) => server.close(() => resolve(undefined))),
    (error: NodeJS.ErrnoException) => error,
  );
  if (listened === undefined) return { state: 'free' };
  if (listened.code !== 'EADDRINUSE') return { state: 'refused', cause: listened.code ?? listened.message };
  const answered = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host, port });
    socket.setTimeout(2_000, () => socket.destroy());
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
  return answered ? { state: 'taken' } : { state: 'refused', cause: 'EADDRINUSE, and nothing answers there' };
}

/** Any HTTP answer means the address reaches a server; only a failed connection or a timeout does not. */
async function reach(url: string): Promise<{ ok: true; status: number } | { ok: false; cause: string }> {
  try {
    const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(5_000), redirect: 'manual' });
    await response.body?.cancel();
    return { ok: true, status: response.status };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, cause: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}
