import { describe, expect, it } from '@jest/globals';
import { openStore } from '../../../src/store/index.js';

/** Each method name along the object's prototype chain, with the classes that define it. */
function definers(object: object): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (let proto = Object.getPrototypeOf(object) as object | null; proto && proto !== Object.prototype;) {
    for (const name of Object.getOwnPropertyNames(proto))
      if (name !== 'constructor') found.set(name, [...(found.get(name) ?? []), proto.constructor.name]);
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return found;
}

const repeated = (object: object) => [...definers(object)].filter(([, classes]) => classes.length > 1);

describe("the SQL store's tables, stacked into one class", () => {
  it('never define the same method twice, so no table hides another', async () => {
    const root = await openStore({ kind: 'sqlite', file: ':memory:' });
    try {
      const server = root.forServer('1');
      expect(definers(server).get('acceptVote')).toEqual(['SqlVotes']);
      expect(definers(server).get('milestones')).toEqual(['SqlMilestones']);
      expect(repeated(server)).toEqual([]);
      expect(definers(root).get('addEvents')).toEqual(['SqlEvents']);
      expect(repeated(root)).toEqual([]);
    } finally {
      await root.close();
    }
  });
});
