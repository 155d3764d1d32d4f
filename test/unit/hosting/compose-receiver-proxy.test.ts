import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { ROOT } from '../../../tools/bot-process.js';

const compose = readFileSync(`${ROOT}compose.yaml`, 'utf8');
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> };

/** One top-level service's lines, up to the next service or section. */
function service(name: string): string {
  const match = new RegExp(`^ {2}${name}:\\n((?: {4}.*\\n|\\n)*)`, 'm').exec(compose);
  if (!match) throw new Error(`compose.yaml has no ${name} service`);
  return match[1]!;
}

describe('compose.yaml, the receiver and the REST proxy', () => {
  it('runs a receiver alone (ROLE=receiver) from the bot image, in a profile of its own', () => {
    const receiver = service('receiver');
    expect(receiver).toMatch(/^ {4}image: vote-review-bot$/m);
    // Its own profile, and the scale profile's one receiver (docs/scale.md).
    expect(receiver).toMatch(/^ {4}profiles: \[receiver, scale\]$/m);
    expect(receiver).toMatch(/^ {6}ROLE: receiver$/m);
  });

  it('publishes a range of host ports, so `--scale receiver=N` gives each replica one (a fixed port collides)', () => {
    const published = [...service('receiver').matchAll(/^ {6}- '(\d+)(?:-(\d+))?:8080'$/gm)];
    expect(published).toHaveLength(1);
    const [, from, to] = published[0]!;
    expect(Number(to) - Number(from)).toBeGreaterThanOrEqual(2);
  });

  it('runs the REST proxy with the command npm run rest-proxy runs, and without the bot’s env file', () => {
    const proxy = service('rest-proxy');
    const command = /^ {4}command: \[(.*)\]$/m.exec(proxy)?.[1];
    expect(command?.split(',').map((part) => part.trim().replace(/^'|'$/g, ''))).toEqual(
      pkg.scripts['rest-proxy']!.split(/\s+/),
    );
    // Its own profile, and the scale profile's bots send through it.
    expect(proxy).toMatch(/^ {4}profiles: \[rest-proxy, scale\]$/m);
    expect(proxy).not.toMatch(/env_file/);
  });
});
