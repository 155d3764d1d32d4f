// `npm run build`'s second step: bundles the bot that `npm start` runs (main and every command module,
// as tsc wrote them) into dist/bundle/. Node 20's ES module loader allocates ~50 KB for each module it
// loads; over the bot's ~160 modules that was ~8 MB of start-up garbage, enough to fill the young
// generation twice before the bot was ready (docs/performance.md, "Start-up"). Commands keep a file
// each, with the code they share in chunks: src/bot/load-commands.ts still reads them from a directory,
// and no module is loaded twice. Packages stay in node_modules, loaded as before.
import { readdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild-wasm';

const OUT_DIR = 'dist/bundle';
const commands = readdirSync('dist/commands')
  .filter((file) => file.endsWith('.js'))
  .map((file) => `dist/commands/${file}`);

rmSync(OUT_DIR, { recursive: true, force: true });
await build({
  entryPoints: ['dist/src/main.js', ...commands],
  outbase: 'dist',
  outdir: OUT_DIR,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  packages: 'external',
  // Maps back to src/*.ts through tsc's maps, for NODE_OPTIONS=--enable-source-maps.
  sourcemap: true,
  logLevel: 'warning',
});
