import { spawn } from 'node:child_process';
import { blankedConfig, ROOT, scriptCommand } from '../../tools/bot-process.js';

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an npm script's node command (and `extraArgs`, as after `npm run x --`) to its end, with only the given settings (a developer's .env cannot leak in). */
export function runScript(script: string, env: Record<string, string>, extraArgs: string[] = []): Promise<ScriptRun> {
  const { command, args: scriptArgs } = scriptCommand(script);
  return runCommand(command, [...scriptArgs, ...extraArgs], env);
}

/**
 * Runs a built file (`dist/src/processes/sandbox.js`) with Node, as runScript does a script; for a script
 * that builds first. `timeoutMs` kills one that would otherwise serve forever (code null).
 */
export function runBuilt(
  file: string,
  env: Record<string, string>,
  args: string[] = [],
  timeoutMs?: number,
): Promise<ScriptRun> {
  return runCommand(process.execPath, [file, ...args], env, timeoutMs);
}

function runCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs?: number,
): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
      env: { PATH: process.env.PATH ?? '', ...blankedConfig(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
