import { beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../../tools/bot-process.js';

const CRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

/** Runs the project's layer rules over a small tree of files, as `npm run lint:layers` does over src/. */
function cruise(files: Record<string, string>): { status: number | null; out: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'layers-'));
  try {
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext' } }));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    const run = spawnSync(
      process.execPath,
      [CRUISE, ...new Set(Object.keys(files).map((file) => file.split('/')[0]!)), '--config', CONFIG],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    return { status: run.status, out: run.stdout + run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the layer rules', () => {
  // The refusals share one tree (each its own files, named in its line of the report): a cruise is a
  // process start of about two seconds of CPU.
  let refused: { status: number | null; out: string };
  beforeAll(() => {
    refused = cruise({
      'src/config/config.ts': 'export const level = 1;\n',
      'src/core/log.ts': "import { level } from '../config/config.js';\nexport const log = level;\n",
      'src/store/index.ts': 'export const rows = 1;\n',
      'src/api/client.ts': "import { rows } from '../store/index.js';\nexport const client = rows;\n",
      'src/api/a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
      'src/api/b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
      'tools/stand-in.ts': 'export const standIn = 1;\n',
      'commands/vote.ts': "import { standIn } from '../tools/stand-in.js';\nexport const vote = standIn;\n",
    });
  });

  it('accept an import from a lower layer', () => {
    const result = cruise({
      'src/core/limits.ts': 'export const MAX = 1;\n',
      'src/views/card.ts': "import { MAX } from '../core/limits.js';\nexport const card = MAX;\n",
    });
    expect(result.out).toContain('no dependency violations');
    expect(result.status).toBe(0);
  });

  it('refuse an import that runs up a layer, naming the rule', () => {
    expect(refused.out).toContain('no-import-up-from-leaves: src/core/log.ts → src/config/config.ts');
    expect(refused.status).not.toBe(0);
  });

  it('refuse an import between two rooms of one layer', () => {
    expect(refused.out).toContain('no-import-sideways-in-foundations: src/api/client.ts → src/store/index.ts');
  });

  it('refuse a circle, even of type-only imports inside one room', () => {
    expect(refused.out).toMatch(/no-circular: src\/api\/(a|b)\.ts → /);
  });

  it('refuse a command that imports a developer tool', () => {
    expect(refused.out).toContain('no-import-of-tools-from-the-bot: commands/vote.ts → tools/stand-in.ts');
  });
});
