import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (what .ci/run installs) or the one CHROMIUM_PATH names; playwright-core downloads none. */
function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((file): file is string => file !== undefined && file !== '' && existsSync(file));
  if (!found) throw new Error('no chromium: `apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary');
  return found;
}

/** A headless chromium that reaches loopback only: every other host is refused by the browser itself. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'],
  });
}

/** The folder a test's screenshots go to: test-output/<name>/ at the project's root. */
export function outputFolder(name: string): string {
  const folder = path.resolve('test-output', name);
  mkdirSync(folder, { recursive: true });
  return folder;
}
