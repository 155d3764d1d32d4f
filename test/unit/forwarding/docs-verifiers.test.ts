import { afterAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { voteSignature } from '../../../src/forwarding/signature.js';
import { markedSnippet } from '../../support/marked-snippet.js';

// The verifiers docs/forwarding-and-api.md gives receiving bots, run as a reader copies them, against
// the signature the bot sends.

const SECRET = 'vrf_docs_verifier_secret_0123456789';
const BODY = '{"type":"vote.create","id":"d-1","data":{"member_id":"284102390141648897","site":"topgg"}}';
const dir = mkdtempSync(path.join(tmpdir(), 'forward-verifiers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What each verifier says of [signed now, another body, another secret, signed an hour ago]. */
const CASES = () => {
  const now = Math.floor(Date.now() / 1000);
  const header = voteSignature(SECRET, BODY, now);
  return [
    [header, BODY, SECRET],
    [header, BODY.replace('topgg', 'discadia'), SECRET],
    [header, BODY, `${SECRET}x`],
    [voteSignature(SECRET, BODY, now - 3_600), BODY, SECRET],
  ];
};

describe('the verifiers in docs/forwarding-and-api.md', () => {
  it('JavaScript accepts what the bot signs and nothing else', () => {
    const file = path.join(dir, 'verify.mjs');
    writeFileSync(
      file,
      `${markedSnippet('verifier', 'javascript')}\n` +
        `const cases = JSON.parse(process.argv[2]);\n` +
        `console.log(JSON.stringify(cases.map(([h, b, s]) => verifyVote(h, b, s))));\n`,
    );
    const out = execFileSync(process.execPath, [file, JSON.stringify(CASES())], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([true, false, false, false]);
  });

  it('Python accepts what the bot signs and nothing else', () => {
    const file = path.join(dir, 'verify.py');
    writeFileSync(
      file,
      `${markedSnippet('verifier', 'python')}\n\n` +
        `import json, sys\n` +
        `cases = json.loads(sys.argv[1])\n` +
        `print(json.dumps([verify_vote(h, b.encode(), s) for h, b, s in cases]))\n`,
    );
    const out = execFileSync('python3', [file, JSON.stringify(CASES())], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([true, false, false, false]);
  });
});
