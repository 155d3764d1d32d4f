import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, type BotProcess } from '../../tools/bot-process.js';
import { readUntil } from './poll-until.js';

/** A bot's monotonic clock, moved forward by the test (test/support/monotonic-step.js in the bot). */
export interface ClockSteps {
  /** Settings that load the clock into a bot started with them. */
  readonly env: Record<string, string>;
  /** Moves the bot's clock `ms` forward and resolves once the bot has taken the step. */
  forward(bot: BotProcess, ms: number): Promise<void>;
  /** Deletes the files the steps are passed through. */
  remove(): void;
}

export function clockSteps(): ClockSteps {
  const dir = mkdtempSync(path.join(tmpdir(), 'bot-clock-'));
  const file = path.join(dir, 'offset');
  const applied = `${file}.applied`;
  let offset = 0;
  return {
    env: {
      NODE_OPTIONS: `--import=${pathToFileURL(path.join(ROOT, 'test/support/monotonic-step.js')).href}`,
      MONOTONIC_STEP_FILE: file,
    },
    async forward(bot, ms) {
      offset += Math.max(0, Math.ceil(ms));
      writeFileSync(file, String(offset));
      bot.child.kill('SIGUSR2');
      // The bot answers in a file, which tells no one it changed: read until it holds the new offset.
      await readUntil(
        async () => (existsSync(applied) ? readFileSync(applied, 'utf8') : ''),
        (text) => text === String(offset),
        { what: `the bot's clock ${offset} ms ahead` },
      );
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
