import { describe, expect, it } from '@jest/globals';
import { DRILLS_SECTION, withDrillsSection } from '../../../bench/drills/results-section.js';

describe("RESULTS.md's drills section", () => {
  it('is added at the end when missing, and replaced in place, leaving the sections after it alone', () => {
    const first = withDrillsSection('# Results\n\n| table |\n', `${DRILLS_SECTION}\n\nold\n`);
    expect(first).toBe(`# Results\n\n| table |\n\n${DRILLS_SECTION}\n\nold\n`);
    const withNotes = `${first}\n## Notes\n- kept\n`;
    expect(withDrillsSection(withNotes, `${DRILLS_SECTION}\n\nnew\n`)).toBe(
      `# Results\n\n| table |\n\n${DRILLS_SECTION}\n\nnew\n\n## Notes\n- kept\n`,
    );
  });
});
