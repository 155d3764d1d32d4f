import { describe, expect, it } from '@jest/globals';
import { softOpenFileLimit } from '../../../src/core/open-file-limit.js';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 1048576              files
Max locked memory         8388608              8388608              bytes
`;

describe("the process's open-file limit", () => {
  it('is the soft limit /proc/self/limits gives (what ulimit -n set), not the hard one', () => {
    expect(softOpenFileLimit(() => LIMITS)).toBe(1024);
  });

  it('is unknown where the file is missing or the limit reads unlimited', () => {
    expect(
      softOpenFileLimit(() => {
        throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      }),
    ).toBeUndefined();
    expect(
      softOpenFileLimit(() => LIMITS.replace('1024                 1048576', 'unlimited unlimited')),
    ).toBeUndefined();
  });

  it('is read from this process on Linux', () => {
    const limit = softOpenFileLimit();
    if (process.platform === 'linux') expect(limit).toBeGreaterThan(0);
    else expect(limit).toBeUndefined();
  });
});
