import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BenchContext } from '../../bench/context.js';
import { withBot } from '../../bench/scenarios/with-bot.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';

// The bench's own harness around the built bot: a stop it asked for is not reported as a crash.
let discord: DiscordStandIn;
let sandbox: Sandbox;

beforeAll(async () => {
  [discord, sandbox] = await Promise.all([startDiscordStandIn(), startSandbox()]);
});
afterAll(async () => {
  await Promise.all([discord?.close(), sandbox?.close()]);
});

function context(notes: string[]): BenchContext {
  return { discord, sandbox, progress: () => {}, note: (line) => notes.push(line), cpuLog: () => {}, othersPeak: 0 };
}

describe("the bench's notes on a bot process that ends during a run", () => {
  it('notes no death when the drill stopped the bot itself with SIGTERM', async () => {
    const notes: string[] = [];
    await withBot(context(notes), 'ours', 'a drill that stops the bot', async (bot) => {
      await bot.terminate();
      expect(bot.alive).toBe(false);
    });
    expect(notes).toEqual([]);
  });

  it('notes a death nobody asked for', async () => {
    const notes: string[] = [];
    await withBot(context(notes), 'ours', 'a run the bot dies in', async (bot) => {
      const exited = new Promise<void>((resolve) => bot.onExit(resolve));
      process.kill(bot.pid, 'SIGKILL');
      await exited;
    });
    expect(notes).toEqual([expect.stringContaining('Our bot process died during "a run the bot dies in"')]);
  });
});
