import { EXIT_CONFIG, EXIT_FAILURE } from '../core/exit-codes.js';
import type { DoctorState } from '../doctor/check.js';
import { ALL_CHECKS, checksForServer } from '../doctor/checks.js';
import { runChecks } from '../doctor/run-checks.js';

/**
 * One check in `--json` output; `status` tells a skipped check (not ok, nothing to fix here) from a
 * failed one, and a warning (ok, with a fix) from a pass.
 */
interface CheckResult {
  ok: boolean;
  name: string;
  status: 'pass' | 'fail' | 'warn' | 'skip';
  detail: string;
  fix: string | null;
}

/** What a doctor run checks and where its report goes. */
export interface DoctorRun {
  json: boolean;
  /** `--server`: one of many servers, from its stored settings. */
  server?: string | undefined;
  /** The settings to check; the process's own (and .env) when absent. */
  env?: NodeJS.ProcessEnv;
  write(text: string): void;
}

/**
 * `npm run doctor`: checks a real setup end to end, one line per check. Reads only: it never posts
 * to the service, to Discord's channels or to members (the dashboard's check asks for a token it drops).
 * Resolves with the exit code: 0 when no check failed (skips are not failures); 78 when the configuration
 * itself does not parse (as the bot would exit), 1 for any other failed check.
 */
export async function doctorReport({ json, server, env, write }: DoctorRun): Promise<number> {
  const state: DoctorState = env === undefined ? {} : { env };
  const results: CheckResult[] = [];
  const ok = await runChecks(
    server === undefined ? ALL_CHECKS : checksForServer(server),
    (line, name, outcome) => {
      if (!json) write(`${line}\n`);
      const fix = outcome.status === 'fail' || outcome.status === 'warn' ? outcome.fix : null;
      const ok = outcome.status === 'pass' || outcome.status === 'warn';
      results.push({ ok, name, status: outcome.status, detail: outcome.detail, fix });
    },
    state,
  );
  const skipped = results.filter((result) => result.status === 'skip').length;
  const warned = results.filter((result) => result.status === 'warn').length;
  write(
    json
      ? `${JSON.stringify(results, null, 2)}\n`
      : !ok
        ? 'Fix the ✘ lines above, then run npm run doctor again.\n'
        : warned > 0
          ? `No check failed; ${warned === 1 ? 'the ⚠ line above is' : `the ${warned} ⚠ lines above are`} likely not what you meant.\n`
          : skipped === 0
            ? 'All checks passed.\n'
            : `No check failed; the ${skipped} skipped (–) had nothing to check here.\n`,
  );
  return ok ? 0 : state.config === undefined ? EXIT_CONFIG : EXIT_FAILURE;
}

/** Runs the checks and exits with their outcome. */
export function runDoctor(json: boolean, server: string | undefined): void {
  doctorReport({ json, server, write: (text) => process.stdout.write(text) }).then(
    // Discord's REST client keeps sockets open; exit once the last line is written (a pipe may lag).
    (code) => process.stdout.write('', () => process.exit(code)),
    (error: unknown) => {
      process.stderr.write(`doctor failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
