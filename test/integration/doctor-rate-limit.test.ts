import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseConfig } from '../../src/config/bot.js';
import { pass, type Check } from '../../src/doctor/check.js';
import { runChecks } from '../../src/doctor/run-checks.js';
import { serviceBaseUrlCheck } from '../../src/doctor/service-base-url.js';
import { serviceCredentialsCheck } from '../../src/doctor/service-credentials.js';
import { serviceRateLimitCheck } from '../../src/doctor/service-rate-limit.js';
import { serviceReachableCheck } from '../../src/doctor/service-reachable.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';

describe('the doctor’s rate-limit check', () => {
  let sandbox: Sandbox;
  let limited: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
    // Rate-limit mode sends the headers Guilds sends on every response.
    limited = await startSandbox({ rateLimit: { limit: 60, windowMs: 42_000 } });
  });
  afterAll(async () => {
    await Promise.all([sandbox?.close(), limited?.close()]);
  });

  async function linesFor({ baseUrl }: Sandbox): Promise<string[]> {
    const config: Check = {
      name: 'configuration',
      async run(state) {
        state.config = parseConfig({
          DISCORD_TOKEN: 'token',
          DISCORD_CLIENT_ID: '981489785241731072',
          DISCORD_GUILD_ID: '820627321651331072',
          SERVICE_BASE_URL: baseUrl,
          SERVICE_API_KEY: sandbox.apiKey,
          SERVICE_APP_ID: sandbox.appId,
        });
        return pass('set for the test.');
      },
    };
    const lines: string[] = [];
    const checks = [config, serviceBaseUrlCheck, serviceReachableCheck, serviceCredentialsCheck, serviceRateLimitCheck];
    await runChecks(checks, (line) => lines.push(line));
    return lines;
  }

  it('shows the limit, what is left and the reset when the service sends x-ratelimit-* headers', async () => {
    const lines = await linesFor(limited);
    expect(lines.at(-1)).toBe('✔ rate-limit headers: seen: limit 60 per window, 59 left, resets in 42 s.');
    expect(limited.violations).toBe(0);
  });

  it('says none were sent when the service sends none, as the spec allows', async () => {
    const lines = await linesFor(sandbox);
    expect(lines.at(-1)).toMatch(/^✔ rate-limit headers: none sent/);
  });
});
