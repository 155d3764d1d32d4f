import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../tools/bot-process.js';

/**
 * The fenced block right after `<!-- <kind>: <name> -->` in docs/*.md, as a reader copies it. Exactly
 * one such marker must exist: a snippet renamed, moved into prose or doubled fails the test that reads it.
 */
export function markedSnippet(kind: string, name: string): string {
  const marker = new RegExp(`<!-- ${kind}: ${name} -->\\n\\n?\`\`\`[\\w-]*\\n([\\s\\S]*?)\\n\`\`\`\\n`, 'g');
  const docs = path.join(ROOT, 'docs');
  const found = readdirSync(docs)
    .filter((file) => file.endsWith('.md'))
    .flatMap((file) => [...readFileSync(path.join(docs, file), 'utf8').matchAll(marker)].map((m) => m[1]!));
  if (found.length !== 1) throw new Error(`expected one "${kind}: ${name}" snippet in docs/, found ${found.length}`);
  return found[0]!;
}
