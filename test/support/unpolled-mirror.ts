import type { VoteMirrorOptions } from '../../src/mirror/mirror-options.js';
import { VoteMirror } from '../../src/mirror/vote-mirror.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { capturedLog } from './captured-log.js';
import { quietVotes } from './quiet-votes.js';
import { fastClient } from './service.js';

/**
 * A mirror over the store with no poll of its own (pollMs 0), asking the sandbox and acting on nothing
 * it finds: the tests poll or refresh it by hand. `extra` replaces what a test watches or holds.
 */
export function unpolledMirror(
  sandbox: Sandbox,
  store: VoteMirrorOptions['store'],
  extra: Partial<VoteMirrorOptions> = {},
): VoteMirror {
  return new VoteMirror({
    store,
    api: fastClient(sandbox),
    logger: capturedLog().logger,
    pollMs: 0,
    now: Date.now,
    votes: quietVotes(),
    ...extra,
  });
}
