import { readFileSync } from 'node:fs';
import { ROOT } from '../../tools/bot-process.js';

export interface Instruction {
  keyword: string;
  args: string;
  /** The stage (0-based FROM count) the instruction belongs to. */
  stage: number;
}

/** The project's Dockerfile as instructions: comments dropped, `\` continuations joined. */
export function readDockerfile(): Instruction[] {
  const text = readFileSync(`${ROOT}Dockerfile`, 'utf8');
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '');
  let stage = -1;
  return logical.map((line) => {
    const [, keyword = '', args = ''] = /^\s*(\w+)\s+(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') stage += 1;
    return { keyword: keyword.toUpperCase(), args: args.trim(), stage };
  });
}

/** The exec-form (JSON array) argument of the last instruction with this keyword in the final stage. */
export function execForm(instructions: Instruction[], keyword: 'CMD' | 'HEALTHCHECK'): string[] {
  const last = Math.max(...instructions.map((i) => i.stage));
  const found = instructions.filter((i) => i.stage === last && i.keyword === keyword).at(-1);
  if (!found) throw new Error(`the Dockerfile's final stage has no ${keyword}`);
  const json = keyword === 'HEALTHCHECK' ? found.args.replace(/^.*?\bCMD\s+/, '') : found.args;
  return JSON.parse(json) as string[];
}

/** ENV of the final stage as a map (`ENV A=1 B=2` form). */
export function finalEnv(instructions: Instruction[]): Record<string, string> {
  const last = Math.max(...instructions.map((i) => i.stage));
  const env: Record<string, string> = {};
  for (const i of instructions.filter((x) => x.stage === last && x.keyword === 'ENV'))
    for (const [, name, value] of i.args.matchAll(/(\w+)=(\S+)/g)) env[name!] = value!;
  return env;
}
