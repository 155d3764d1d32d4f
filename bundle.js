// `npm run build`'s second step: bundles the bot that `npm start` runs (main and every command module,
// as tsc wrote them) into dist/bundle/. Node 20's ES module loader allocates ~50 KB for each module it
// loads; over the bot's ~160 modules that was ~8 MB of start-up garbage, enough to fill the young
// generation twice before the bot was ready (docs/performance.md, "Start-up"). Commands keep a file
// each, with the code they share in chunks: src/bot/load-commands.ts still reads them from a directory,
// and no module is loaded twice. Packages stay in node_modules.
import { readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const OUT_DIR = 'dist/bundle';
// CommonJS packages the bot loads at start, required rather than imported: for an `import`, Node's
// ES module loader first lexes a package's source for its export names, and discord.js's re-exported
// packages with it: ~3 MB of start-up garbage and 79 optimizing compiles (docs/performance.md, "Start-up").
const REQUIRED = ['discord.js', 'discord-api-types/v10', 'pino', 'undici', 'dotenv'];
const require = createRequire(import.meta.url);

function isBindingName(name) {
  try {
    new Function(`const { ${name} } = {};`);
    return name !== 'default';
  } catch {
    return false;
  }
}

/** `import { a } from 'pkg'` reads what `require('pkg')` returns; names a package lacks fail the build. */
const requireCommonJs = {
  name: 'require-commonjs',
  setup(bundler) {
    const names = new Set(REQUIRED);
    bundler.onResolve({ filter: /^[^./]/ }, (args) =>
      names.has(args.path) ? { path: args.path, namespace: 'require-commonjs' } : undefined,
    );
    bundler.onLoad({ filter: /.*/, namespace: 'require-commonjs' }, (args) => {
      const exported = Object.keys(require(args.path)).filter(isBindingName);
      return {
        loader: 'js',
        contents: [
          "import { createRequire } from 'node:module';",
          `const required = createRequire(import.meta.url)(${JSON.stringify(args.path)});`,
          'export default required;',
          `export const { ${exported.join(', ')} } = required;`,
        ].join('\n'),
      };
    });
  },
};
const commands = readdirSync('dist/commands')
  .filter((file) => file.endsWith('.js'))
  .map((file) => `dist/commands/${file}`);

rmSync(OUT_DIR, { recursive: true, force: true });
await build({
  // bot.js reads its command line, then loads bot-run.js; each stays where it was (src/processes/),
  // since bot-run.js finds the commands beside it (../../commands/).
  entryPoints: ['dist/src/processes/bot.js', 'dist/src/processes/bot-run.js', ...commands],
  outbase: 'dist',
  outdir: OUT_DIR,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  packages: 'external',
  // Maps back to src/*.ts through tsc's maps, for NODE_OPTIONS=--enable-source-maps.
  sourcemap: true,
  plugins: [requireCommonJs],
  logLevel: 'warning',
});
