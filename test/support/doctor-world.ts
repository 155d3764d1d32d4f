import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';
import { botEnvironment } from '../../tools/world.js';
import type { ScriptRun } from './run-script.js';

/**
 * What `npm run doctor` is checked against in the e2e tests: the Discord stand-in, the service
 * sandbox, the settings that point at them, and a port this test process holds (another program, as
 * the doctor sees it, answering every request with `status`).
 */
export interface DoctorWorld {
  discord: DiscordStandIn;
  sandbox: Sandbox;
  env: Record<string, string>;
  heldPort: number;
  close(): Promise<void>;
}

export async function startDoctorWorld(status: number): Promise<DoctorWorld> {
  const [discord, sandbox] = await Promise.all([startDiscordStandIn(), startSandbox()]);
  const held: Server = createServer((_req, res) => res.writeHead(status).end());
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  return {
    discord,
    sandbox,
    env: botEnvironment(discord, sandbox),
    heldPort: (held.address() as AddressInfo).port,
    async close() {
      await new Promise((resolve) => held.close(resolve));
      await Promise.all([discord.close(), sandbox.close()]);
    },
  };
}

/** The line of the doctor's check `name` (after its ✔/✘ mark), or all it printed when it has none. */
export const checkLine = (run: ScriptRun, name: string): string =>
  run.stdout.split('\n').find((line) => line.slice(2).startsWith(`${name}:`)) ?? run.stdout + run.stderr;
