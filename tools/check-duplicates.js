// `npm run check:duplicates` (part of `npm test`): the places in src/ and commands/ that share six or
// more lines, found by jscpd. Each is a rule written twice; more than MAX_PLACES fails. Lower the
// bound when a change takes some away, so they stay away. Plain JavaScript: it runs before anything
// is compiled.
import { createRequire } from 'node:module';

const MAX_PLACES = 1;
// jscpd's ESM build does not load on Node 20 (a bare `colors/safe` import); its CommonJS build does.
const { detectClones } = createRequire(import.meta.url)('jscpd');

const clones = await detectClones({
  path: ['src', 'commands'],
  format: ['typescript'],
  minLines: 6,
  minTokens: 30,
  silent: true,
  reporters: [],
});
const place = ({ sourceId, start, end }) => `${sourceId}:${start.line}-${end.line}`;
const lines = clones.map(({ duplicationA: a, duplicationB: b }) => `  ${place(a)} ~ ${place(b)}`);
process.stdout.write(`${clones.length} places share six or more lines (at most ${MAX_PLACES}):\n${lines.join('\n')}\n`);
if (clones.length > MAX_PLACES) {
  process.stdout.write('Make one of each pair serve both (or name what differs), then run this again.\n');
  process.exitCode = 1;
}
