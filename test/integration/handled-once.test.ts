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
      claimInteractions: (claims) =>
        failing ? Promise.reject(new Error('database is locked')) : root.claimInteractions(claims),
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
    expect(await root.claimInteractions([{ guildId: SERVER, id: '1300000000000000012', until }])).toEqual([false]);
  });

  it('writes the claims made at once together, each id claimed once across processes sharing the store', async () => {
    const root = await store('together');
    const batches: number[] = [];
    const counted: HandledInteractionStore = {
      claimInteractions: (claims) => {
        batches.push(claims.length);
        return root.claimInteractions(claims);
      },
      forgetHandledInteractions: (now) => root.forgetHandledInteractions(now),
    };
    const { logger, lines } = capturedLog();
    const [one, other] = [new HandledOnce(counted, logger), new HandledOnce(counted, logger)];
    const ids = Array.from({ length: 20 }, (_, i) => String(1300000000000000100n + BigInt(i)));
    const until = Date.now() + 300_000;
    const [ours, theirs] = await Promise.all(
      [one, other].map((once) => Promise.all(ids.map((id) => once.first(SERVER, id, until)))),
    );
    expect(ids.map((_, i) => [ours![i], theirs![i]].filter(Boolean).length)).toEqual(ids.map(() => 1));
    expect(batches).toEqual([20, 20]);
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  });

  it('writes the claims made during a write in the next one, each answered once it is stored', async () => {
    const root = await store('next');
    const batches: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const writing = new Promise<void>((resolve) => (started = resolve));
    const gated: HandledInteractionStore = {
      claimInteractions: async (claims) => {
        batches.push(claims.length);
        started();
        await held;
        return root.claimInteractions(claims);
      },
      forgetHandledInteractions: (now) => root.forgetHandledInteractions(now),
    };
    const once = new HandledOnce(gated, capturedLog().logger);
    const until = Date.now() + 300_000;
    const first = once.first(SERVER, '1300000000000000201', until);
    await writing;
    const later = ['1300000000000000202', '1300000000000000203', '1300000000000000201'].map((id) =>
      once.first(SERVER, id, until),
    );
    release();
    expect(await Promise.all([first, ...later])).toEqual([true, true, true, false]);
    // The repeat was refused from memory, without the store.
    expect(batches).toEqual([1, 2]);
  });
});
