/**
 * How the bot's commands end when they cannot do their job. Supervisors restart on EXIT_FAILURE
 * (Discord or the database not reachable yet, another process holding the store) and stop on
 * EXIT_CONFIG, sysexits' EX_CONFIG: a setting or a file must change first, so each restart would
 * fail the same way (the systemd unit's RestartPreventExitStatus=78).
 */
export const EXIT_FAILURE = 1;
export const EXIT_CONFIG = 78;

/** A start that cannot go on, told in one line; EXIT_CONFIG when only a changed setting can help. */
export class FatalStartError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
  }
}

/** The exit code an error that ended a start asks for: its own `exitCode`, else EXIT_FAILURE. */
export function exitCodeOf(error: unknown): number {
  const code = (error as { exitCode?: unknown } | null)?.exitCode;
  return typeof code === 'number' ? code : EXIT_FAILURE;
}
