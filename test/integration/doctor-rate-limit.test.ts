import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../../src/config.js';
import { pass, type Check } from '../../src/doctor/check.js';
import { runChecks } from '../../src/doctor/run-checks.js';
import { serviceBaseUrlCheck } from '../../src/doctor/service-base-url.js';
import { serviceCredentialsCheck } from '../../src/doctor/service-credentials.js';
import { serviceRateLimitCheck } from '../../src/doctor/service-rate-limit.js';
import { serviceReachableCheck } from '../../src/doctor/service-reachable.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';

/** The sandbox behind a loopback proxy that adds the headers Guilds sends on every response. */
function withRateLimitHeaders(target: string): Promise<Server> {
  const { hostname, port } = new URL(target);
  const server = createServer((req, res) => {
    const upstream = request({ hostname, port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, {
        ...answer.headers,
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '59',
        'x-ratelimit-reset': '42',
      });
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('the doctor’s rate-limit check', () => {
  let sandbox: Sandbox;
  let proxy: Server;
  beforeAll(async () => {
    sandbox = await startSandbox();
    proxy = await withRateLimitHeaders(sandbox.baseUrl);
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await sandbox?.close();
  });

  async function linesFor(baseUrl: string): Promise<string[]> {
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
    const { port } = proxy.address() as AddressInfo;
    const lines = await linesFor(`http://127.0.0.1:${port}/v1`);
    expect(lines.at(-1)).toBe('✔ rate-limit headers: seen: limit 60 per window, 59 left, resets in 42 s.');
  });

  it('says none were sent when the service sends none, as the spec allows', async () => {
    const lines = await linesFor(sandbox.baseUrl);
    expect(lines.at(-1)).toMatch(/^✔ rate-limit headers: none sent/);
  });
});
