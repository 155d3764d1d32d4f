import { EXIT_CONFIG, EXIT_FAILURE } from '../core/exit-codes.js';
import type { DoctorState } from '../doctor/check.js';
import { ALL_CHECKS, checksForServer } from '../doctor/checks.js';
import { runChecks } from '../doctor/run-checks.js';

/** One check in `--json` output; `status` tells a skipped check (not ok, nothing to fix here) from a failed one. */
interface CheckResult {
  ok: boolean;
  name: string;
  status: 'pass' | 'fail' | 'skip';
  detail: string;
  fix: string | null;
}

/**
 * `npm run doctor`: checks a real setup end to end, one line per check. Reads only: it never posts
 * to the service, to Discord's channels or to members (the dashboard's check asks for a token it drops).
 * Exit 0 when no check failed (skips are not failures); 78 when the configuration itself does not parse
 * (as the bot would exit), 1 for any other failed check.
 */
async function doctor(json: boolean, server: string | undefined): Promise<void> {
  const state: DoctorState = {};
  const results: CheckResult[] = [];
  const ok = await runChecks(
    server === undefined ? ALL_CHECKS : checksForServer(server),
    (line, name, outcome) => {
      if (!json) process.stdout.write(`${line}\n`);
      const fix = outcome.status === 'fail' ? outcome.fix : null;
      results.push({ ok: outcome.status === 'pass', name, status: outcome.status, detail: outcome.detail, fix });
    },
    state,
  );
  const code = ok ? 0 : state.config === undefined ? EXIT_CONFIG : EXIT_FAILURE;
  const skipped = results.filter((result) => result.status === 'skip').length;
  const closing = json
    ? `${JSON.stringify(results, null, 2)}\n`
    : !ok
      ? 'Fix the ✘ lines above, then run npm run doctor again.\n'
      : skipped === 0
        ? 'All checks passed.\n'
        : `No check failed; the ${skipped} skipped (–) had nothing to check here.\n`;
  // Discord's REST client keeps sockets open; exit once the last line is written (a pipe may lag).
  process.stdout.write(closing, () => process.exit(code));
}

/** Runs the checks and exits with their outcome. */
export function runDoctor(json: boolean, server: string | undefined): void {
  doctor(json, server).catch((error: unknown) => {
    process.stderr.write(`doctor failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
