import { ALL_CHECKS } from './checks.js';
import { runChecks } from './run-checks.js';

/**
 * `npm run doctor`: checks a real setup end to end, one line per check. Reads only: it never posts
 * to the service, to Discord or to members. Exit 0 only when every check passed.
 */
async function doctor(): Promise<void> {
  const ok = await runChecks(ALL_CHECKS, (line) => process.stdout.write(`${line}\n`));
  const closing = ok ? 'All checks passed.\n' : 'Fix the ✘ lines above, then run npm run doctor again.\n';
  // Discord's REST client keeps sockets open; exit once the last line is written (a pipe may lag).
  process.stdout.write(closing, () => process.exit(ok ? 0 : 1));
}

doctor().catch((error: unknown) => {
  process.stderr.write(`doctor failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
