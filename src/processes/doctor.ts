import { readArgs } from '../core/cli-args.js';
import { EXIT_CONFIG, EXIT_FAILURE } from '../core/exit-codes.js';
import type { DoctorState } from '../doctor/check.js';
import { ALL_CHECKS, checksForServer } from '../doctor/checks.js';
import { runChecks } from '../doctor/run-checks.js';

const USAGE = `Usage: npm run doctor [-- --json] [-- --server <server id>]

Checks a real setup end to end (settings, Discord, the channels and roles, the service), one line per
check, reading only. Reads the same settings as the bot, from the environment or .env.
Exit codes: 0 when no check failed (a skipped one is not a failure), 78 when the configuration does not
parse, 1 for any other failure.

Options:
  --server ID with many servers: check that server as /setup status does (its stored settings,
              opened with SECRETS_KEY: channels, roles, service credentials)
  --json      print the checks as a JSON array of { ok, name, status, detail, fix } (fix is null
              unless the check failed), for scripts; the exit codes are the same
  -h, --help  show this text
`;

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

const args = readArgs(USAGE, { json: { type: 'boolean' }, server: { type: 'string' } });
if (args)
  doctor(args.json === true, args.server).catch((error: unknown) => {
    process.stderr.write(`doctor failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
