import { describe, expect, it } from '@jest/globals';
import { plainText } from '../../../src/dashboard/page-text.js';

const names = {
  channel: (id: string) => (id === '100000000000000001' ? 'reviews' : undefined),
  role: (id: string) => (id === '200000000000000002' ? 'Voter' : undefined),
  member: (id: string) => (id === '300000000000000003' ? 'Ada' : undefined),
};

describe("a /setup status line's text on a page", () => {
  it("shows Discord's timestamps as the UTC time they stand for, not as <t:…:R>", () => {
    expect(plainText('last delivery <t:1795691772:R>', names)).toBe('last delivery 2026-11-26 11:16 UTC');
    expect(plainText('at <t:1795691772>', names)).toBe('at 2026-11-26 11:16 UTC');
  });

  it('names mentions it knows and keeps the ones it does not, with markdown dropped', () => {
    expect(plainText('**Feed**: <#100000000000000001>, role <@&200000000000000002>, `x`', names)).toBe(
      'Feed: #reviews, role @Voter, x',
    );
    expect(plainText('<#100000000000000009>', names)).toBe('<#100000000000000009>');
    expect(plainText('<@300000000000000003> voted, <@!300000000000000003> too; <@300000000000000009>', names)).toBe(
      '@Ada voted, @Ada too; <@300000000000000009>',
    );
  });
});
