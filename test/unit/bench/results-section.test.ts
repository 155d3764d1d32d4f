import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DRILLS_SECTION,
  SCALE_RUN_SECTION,
  withDrillsSection,
  withKeptSections,
} from '../../../bench/drills/results-section.js';

describe("RESULTS.md's drills section", () => {
  it('is added at the end when missing, and replaced in place, leaving the sections after it alone', () => {
    const first = withDrillsSection('# Results\n\n| table |\n', `${DRILLS_SECTION}\n\nold\n`);
    expect(first).toBe(`# Results\n\n| table |\n\n${DRILLS_SECTION}\n\nold\n`);
    const withNotes = `${first}\n## Notes\n- kept\n`;
    expect(withDrillsSection(withNotes, `${DRILLS_SECTION}\n\nnew\n`)).toBe(
      `# Results\n\n| table |\n\n${DRILLS_SECTION}\n\nnew\n\n## Notes\n- kept\n`,
    );
  });

  it("keeps the opt-in scale run's section beside the drills' when the rest is written again", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-results-'));
    try {
      const file = path.join(dir, 'RESULTS.md');
      writeFileSync(file, `# Old\n\n${SCALE_RUN_SECTION}\n\n50k\n\n${DRILLS_SECTION}\n\ndrills\n`);
      const text = withKeptSections('# New\n\n| table |\n', pathToFileURL(file));
      expect(text).toBe(`# New\n\n| table |\n\n${SCALE_RUN_SECTION}\n\n50k\n\n${DRILLS_SECTION}\n\ndrills\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
