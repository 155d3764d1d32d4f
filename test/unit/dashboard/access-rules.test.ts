import { describe, expect, it } from '@jest/globals';
import { manageableGuildIds } from '../../../src/dashboard/manageable.js';

describe("the servers a member may set up, from Discord's list", () => {
  it('are those they own or hold Manage Server or Administrator in, with permissions past 2^53 read whole', () => {
    const ids = manageableGuildIds([
      { id: 'owner', owner: true, permissions: '0' },
      { id: 'manage', permissions: String(1n << 5n) },
      { id: 'admin', permissions: String((1n << 3n) | (1n << 52n)) },
      { id: 'big', permissions: String((1n << 60n) | (1n << 5n)) },
      { id: 'member', permissions: String((1n << 60n) | (1n << 10n)) },
      { id: 'broken', permissions: 'lots' },
    ]);
    expect(ids).toEqual(['owner', 'manage', 'admin', 'big']);
  });
});
