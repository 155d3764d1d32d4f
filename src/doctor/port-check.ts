import { connect, createServer } from 'node:net';
import { listen } from '../core/listen.js';
import type { Config } from '../config/bot.js';
import { fail, pass, skip, type Check, type Outcome } from './check.js';
import { portHolder } from './port-holder.js';

/** A port the bot will listen on: what holds it now, as the start of a check's line, or the failure. */
type PortFinding = { ok: true; listening: string } | { ok: false; outcome: Outcome };

/**
 * The port (named by its setting, such as WEBHOOK_PORT) free, or held by the running bot (told by its
 * process, never assumed): anything else holding it, or a port that cannot be listened on, fails.
 */
async function portCheck(setting: string, host: string, port: number): Promise<PortFinding> {
  const state = await portState(host, port);
  if (state.state === 'refused')
    return {
      ok: false,
      outcome: fail(
        `${setting} ${port} on ${host} cannot be listened on (${state.cause}).`,
        'pick a port above 1023 that nothing else uses, or run the bot with the right to bind it.',
      ),
    };
  if (state.state === 'free') return { ok: true, listening: `port ${port} is free` };
  const holder = portHolder(port);
  if (holder?.isBot) return { ok: true, listening: `the bot (pid ${holder.pid}) listens on port ${port}` };
  return {
    ok: false,
    outcome: fail(
      `port ${port} is taken by ${holder ? `${holder.name} (pid ${holder.pid})` : 'another process (the doctor cannot tell which)'}, so the bot could not start.`,
      holder
        ? `stop that process, or set ${setting} to a port nothing uses.`
        : `stop what holds it (ss -ltnp shows it), or set ${setting} to a port nothing uses; if it is the bot running as another user, run the doctor as that user.`,
    ),
  };
}

/** A server the bot listens with (the receiver, the dashboard): its settings, their port's setting, and what is checked next. */
interface Listener<S> {
  what: string;
  setting: string;
  settings: (config: Config) => S | undefined;
  off: string;
  host: (settings: S) => string;
  /** Checked once the port is free or the running bot's; `listening` says which. */
  then: (settings: S, listening: string, config: Config) => Promise<Outcome>;
}

/** Skipped without a configuration, passed when off, failed when its port is not the bot's to take. */
export function listenerCheck<S extends { port: number }>(listener: Listener<S>): Check {
  return {
    name: `${listener.what} (${listener.setting})`,
    async run({ config }) {
      if (!config) return skip('the configuration does not parse.');
      const settings = listener.settings(config);
      if (!settings) return pass(listener.off);
      const port = await portCheck(listener.setting, listener.host(settings), settings.port);
      return port.ok ? listener.then(settings, port.listening, config) : port.outcome;
    },
  };
}

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
