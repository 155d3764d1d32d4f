import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closedPort } from './closed-port.js';

/** The webhook token e2e tests give the bot and deliver with. */
export const WEBHOOK_TOKEN = 'guilds-webhook-token-for-tests';

const dirs: string[] = [];

/**
 * Settings that turn the webhook receiver on, with a store file a test can reopen across a
 * restart, and the URL deliveries go to. `removeStoreFiles` (in afterAll) deletes the files.
 */
export async function receiverEnv(
  extra: Record<string, string> = {},
): Promise<Record<string, string> & { url: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bot-receiver-'));
  dirs.push(dir);
  const port = await closedPort();
  return {
    WEBHOOK_PORT: String(port),
    WEBHOOK_HOST: '127.0.0.1',
    WEBHOOK_TOKEN,
    DATABASE_URL: `file:${path.join(dir, 'bot.sqlite')}`,
    ...extra,
    url: `http://127.0.0.1:${port}/webhook`,
  };
}

export function removeStoreFiles(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
