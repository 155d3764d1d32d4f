import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';

/**
 * One sandbox for a test file: started before its first test, reset (faults, counts, votes) before
 * each, closed after the last. `started` hands it to the file's own variable.
 */
export function useSandbox(started: (sandbox: Sandbox) => void): void {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox();
    started(sandbox);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  beforeEach(() => {
    sandbox?.reset();
  });
}
