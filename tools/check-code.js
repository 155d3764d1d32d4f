// `npm run check:code`: `npm run typecheck` and `npm run lint` in one process, over one TypeScript
// program. Run apart, each builds and checks the same program (tsconfig.json): ESLint's type-aware
// rules ask the checker about every call, which is most of lint's time. Handed the program the type
// check has just checked, ESLint finds those answers ready: 45 s of CPU here instead of 70.
// Plain JavaScript: `npm test` runs it before anything is compiled.
import { ESLint } from 'eslint';
import ts from 'typescript';

const ROOT = process.cwd();
const { config, error } = ts.readConfigFile('tsconfig.json', ts.sys.readFile);
if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });

const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length > 0) {
  const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stdout.write(format(diagnostics, host));
  process.stdout.write(`\nFound ${diagnostics.length} type error${diagnostics.length === 1 ? '' : 's'}.\n`);
}

// eslint.config.js names tsconfig.json as the project; here the same program, already built, stands in for it.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parserOptions: { project: false, programs: [program] } } }],
});
const results = await eslint.lintFiles(['.']);
const report = (await eslint.loadFormatter('stylish')).format(results);
if (report) process.stdout.write(`${report}\n`);

const lintErrors = results.reduce((sum, result) => sum + result.errorCount + result.fatalErrorCount, 0);
process.exitCode = diagnostics.length > 0 || lintErrors > 0 ? 1 : 0;
