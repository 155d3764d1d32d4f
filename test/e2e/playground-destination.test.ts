import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { voteSignature } from '../../src/forwarding/signature.js';
import { ROOT } from '../../tools/bot-process.js';

// `npm run playground:destination` (docs/playground.md): the built script prints what to give the
// bot, then every delivery with whether its signature checks out.

const SECRET = 'vrf_playground_destination_secret_01';
let child: ChildProcess;
let out = '';
const waitFor = (pattern: RegExp) =>
  new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${String(pattern)} in: ${out}`)), 10_000);
    const check = () => {
      const found = out.match(pattern);
      if (!found) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve(found);
    };
    child.stdout!.on('data', check);
    check();
  });

beforeAll(() => {
  child = spawn(process.execPath, [
    path.join(ROOT, 'dist/tools/playground/destination.js'),
    '--port',
    '0',
    '--secret',
    SECRET,
  ]);
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
});
afterAll(() => {
  child.kill('SIGTERM');
});

describe('npm run playground:destination', () => {
  it('prints the settings to start the bot with, then each delivery and whether its signature checks out', async () => {
    const [, url] = await waitFor(/FORWARD_URLS=(http:\/\/127\.0\.0\.1:\d+\/votes)\n/);
    expect(out).toContain(`FORWARD_SECRET=${SECRET}\nFORWARD_ALLOW_PRIVATE=true`);
    const body = '{"type":"vote.create","id":"d-7","data":{"member_id":"284102390141648897"}}';
    const send = (secret: string) =>
      fetch(url!, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-vote-delivery': 'd-7',
          'x-vote-signature': voteSignature(secret, body, Math.floor(Date.now() / 1000)),
        },
      });
    expect((await send(SECRET)).status).toBe(200);
    await waitFor(/vote\.create d-7 ✔ signature checks out; answered 200/);
    expect((await send('another-secret')).status).toBe(200);
    await waitFor(/vote\.create d-7 ✘ signature does NOT check out/);
    expect(out).toContain('"member_id": "284102390141648897"');
  });
});
