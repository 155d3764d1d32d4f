import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HandledOnce } from '../../src/http-interactions/handled-once.js';
import { openStore, type HandledInteractionStore, type StoreRoot } from '../../src/store/index.js';
import { capturedLog } from '../support/captured-log.js';

const SERVER = '111111111111111111';
const dir = mkdtempSync(path.join(tmpdir(), 'handled-once-'));
const roots: StoreRoot[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => root.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function store(name: string): Promise<StoreRoot> {
  const root = await openStore({ kind: 'sqlite', file: path.join(dir, `${name}.sqlite`) });
  roots.push(root);
  return root;
}

describe('HandledOnce', () => {
  it('refuses an id handled before a restart, from the store', async () => {
    const root = await store('restart');
    const { logger } = capturedLog();
    let now = 1_000_000;
    const before = new HandledOnce(root, logger, () => now);
    expect(await before.first(SERVER, '1300000000000000001', now + 300_000)).toBe(true);
    expect(await before.first(SERVER, '1300000000000000001', now + 300_000)).toBe(false);
    const restarted = new HandledOnce(root, logger, () => now);
    expect(await restarted.first(SERVER, '1300000000000000001', now + 300_000)).toBe(false);
    expect(await restarted.first(SERVER, '1300000000000000002', now + 300_000)).toBe(true);
    // Past the windows, the next claim drops the old rows (once a minute at most).
    now += 400_000;
    expect(await restarted.first(SERVER, '1300000000000000003', now + 300_000)).toBe(true);
    await expect(root.forgetHandledInteractions(now)).resolves.toBe(0);
  });

  it('answers with its own memory when the store fails, refusing repeats in this process and saying so once a claim', async () => {
    const root = await store('failing');
    let failing = true;
    const flaky: HandledInteractionStore = {
      claimInteraction: (...args) =>
        failing ? Promise.reject(new Error('database is locked')) : root.claimInteraction(...args),
      forgetHandledInteractions: (now) => root.forgetHandledInteractions(now),
    };
    const { logger, lines } = capturedLog();
    const once = new HandledOnce(flaky, logger);
    const until = Date.now() + 300_000;
    expect(await once.first(SERVER, '1300000000000000011', until)).toBe(true);
    expect(await once.first(SERVER, '1300000000000000011', until)).toBe(false);
    expect(lines.filter((line) => line.level === 40).map((line) => line.msg)).toEqual([
      'interaction not recorded as handled: the store did not answer',
    ]);
    failing = false;
    expect(await once.first(SERVER, '1300000000000000012', until)).toBe(true);
    expect(await root.claimInteraction(SERVER, '1300000000000000012', until)).toBe(false);
  });
});
