import { doctorReport } from '../../src/processes/doctor-run.js';
import { blankedConfig } from '../../tools/bot-process.js';
import type { ScriptRun } from './run-script.js';

/**
 * `npm run doctor` with only the given settings, run in the test's own process: the same checks and
 * report without a Node start per run (about a second of CPU each). The command line itself, its
 * exit and its output on a terminal are tested through the process, in doctor.test.ts.
 */
export async function doctorInProcess(env: Record<string, string>, args: string[] = []): Promise<ScriptRun> {
  const at = args.indexOf('--server');
  let stdout = '';
  try {
    const code = await doctorReport({
      json: args.includes('--json'),
      server: at === -1 ? undefined : args[at + 1],
      env: { ...blankedConfig(), ...env },
      write: (text) => (stdout += text),
    });
    return { code, stdout, stderr: '' };
  } catch (error) {
    return { code: 1, stdout, stderr: `doctor failed: ${error instanceof Error ? error.message : String(error)}\n` };
  }
}
