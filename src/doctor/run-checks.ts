import type { Check, DoctorState, Outcome } from './check.js';

const MARK = { pass: '✔', fail: '✘', warn: '⚠', skip: '–' } as const;

/** A check, or a list of checks known only once earlier checks ran (one per configured channel). */
export type CheckEntry = Check | ((state: DoctorState) => Check[]);

/** One line per check: ✔, ✘ or ⚠ (with the fix), or – when an earlier failure left nothing to check. */
function formatLine(name: string, outcome: Outcome): string {
  const line = `${MARK[outcome.status]} ${name}: ${outcome.status === 'skip' ? 'skipped, ' : ''}${outcome.detail}`;
  return outcome.status === 'fail' || outcome.status === 'warn' ? `${line} Fix: ${outcome.fix}` : line;
}

/**
 * Runs the checks in order, printing each line as it is known (with what it was made of); true when
 * no check failed. A skipped check is not a failure: it follows one (which already failed the run)
 * or has nothing to check here, as a server's own checks with many servers. `state` holds what they learned.
 */
export async function runChecks(
  entries: readonly CheckEntry[],
  print: (line: string, name: string, outcome: Outcome) => void,
  state: DoctorState = {},
): Promise<boolean> {
  let noneFailed = true;
  for (const entry of entries) {
    for (const check of typeof entry === 'function' ? entry(state) : [entry]) {
      const outcome = await runOne(check, state);
      if (outcome.status === 'fail') noneFailed = false;
      print(formatLine(check.name, outcome), check.name, outcome);
    }
  }
  return noneFailed;
}

async function runOne(check: Check, state: DoctorState): Promise<Outcome> {
  try {
    return await check.run(state);
  } catch (error) {
    // A check's own bug must not hide the other checks' findings.
    return {
      status: 'fail',
      detail: `the check itself failed (${error instanceof Error ? error.message : String(error)}).`,
      fix: 'report this line; the other checks still ran.',
    };
  }
}
