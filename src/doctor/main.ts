import { EXIT_CONFIG, EXIT_FAILURE } from '../exit-codes.js';
import type { DoctorState } from './check.js';
import { ALL_CHECKS } from './checks.js';
import { runChecks } from './run-checks.js';

/**
 * `npm run doctor`: checks a real setup end to end, one line per check. Reads only: it never posts
 * to the service, to Discord or to members. Exit 0 only when every check passed; 78 when the
 * configuration itself does not parse (as the bot would exit), 1 for any other failed check.
 */
async function doctor(): Promise<void> {
  const state: DoctorState = {};
  const ok = await runChecks(ALL_CHECKS, (line) => process.stdout.write(`${line}\n`), state);
  const closing = ok ? 'All checks passed.\n' : 'Fix the ✘ lines above, then run npm run doctor again.\n';
  const code = ok ? 0 : state.config === undefined ? EXIT_CONFIG : EXIT_FAILURE;
  // Discord's REST client keeps sockets open; exit once the last line is written (a pipe may lag).
  process.stdout.write(closing, () => process.exit(code));
}

doctor().catch((error: unknown) => {
  process.stderr.write(`doctor failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
