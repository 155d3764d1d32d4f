import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startBot } from '../../tools/bot-process.js';
import { closedPort } from '../../tools/closed-port.js';
import type { DiscordStandIn } from '../../tools/discord-standin/index.js';
import { checkLine, startDoctorWorld, type DoctorWorld } from '../support/doctor-world.js';
import { doctorInProcess } from '../support/doctor-in-process.js';
import { runScript, type ScriptRun } from '../support/run-script.js';

const NAME = 'dashboard (DASHBOARD_PORT)';
const FIX =
  'Fix: Developer Portal → your application → OAuth2 → Client Secret → Reset Secret, then put the new secret in DISCORD_CLIENT_SECRET.';

const everything = (run: ScriptRun) => run.stdout + run.stderr;

describe('npm run doctor on the web dashboard', () => {
  let world: DoctorWorld;
  let discord: DiscordStandIn;
  let env: Record<string, string>;
  let otherPort: number;
  const dashboardOn = async (overrides: Record<string, string> = {}) => {
    const port = String(await closedPort());
    return {
      DASHBOARD_PORT: port,
      DASHBOARD_HOST: '127.0.0.1',
      DASHBOARD_PUBLIC_URL: `http://127.0.0.1:${port}`,
      SESSION_KEY: Buffer.alloc(32, 7).toString('base64'),
      ...overrides,
    };
  };
  // The checks run in this process; the bot's own dashboard below is asked by `npm run doctor`.
  const doctor = (overrides: Record<string, string>) => doctorInProcess({ ...env, ...overrides });
  const lineOf = (run: ScriptRun) => checkLine(run, NAME);
  const clientCredentialsAsked = () =>
    discord.requests.filter(
      (request) =>
        request.method === 'POST' &&
        request.path === '/api/v10/oauth2/token' &&
        new URLSearchParams(String(request.body)).get('grant_type') === 'client_credentials',
    ).length;

  beforeAll(async () => {
    // Another program on a port the dashboard is set to: this test process, not the bot.
    world = await startDoctorWorld(404);
    ({ discord, env, heldPort: otherPort } = world);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('passes with the dashboard off', async () => {
    const run = await doctor({});
    expect(lineOf(run)).toBe(`✔ ${NAME}: not set; the web dashboard is off.`);
  });

  it('passes a secret Discord accepts, printing the redirect URI to register and never the secret', async () => {
    const settings = await dashboardOn();
    const asked = clientCredentialsAsked();
    const run = await doctor(settings);
    expect(lineOf(run)).toBe(
      `✔ ${NAME}: port ${settings.DASHBOARD_PORT} is free; members open ${settings.DASHBOARD_PUBLIC_URL}; the redirect URI to register (Developer Portal → OAuth2 → Redirects) is ${settings.DASHBOARD_PUBLIC_URL}/callback; Discord accepts DISCORD_CLIENT_SECRET.`,
    );
    // Asked Discord with the application's id and secret (the client credentials grant), once.
    expect(clientCredentialsAsked()).toBe(asked + 1);
    expect(everything(run)).not.toContain(discord.clientSecret);
  });

  it('fails plain http on a host other than this machine (cookies in clear, never Secure), and not under https', async () => {
    const plain = lineOf(await doctor(await dashboardOn({ DASHBOARD_PUBLIC_URL: 'http://bot.example.com' })));
    expect(plain).toBe(
      `✘ ${NAME}: port ${plain.match(/port (\d+) is free/)?.[1]} is free; members open http://bot.example.com; ` +
        'the redirect URI to register (Developer Portal → OAuth2 → Redirects) is http://bot.example.com/callback; ' +
        "but that address is plain http on bot.example.com, so a member's session cookie travels in clear and cannot be Secure. " +
        'Fix: put a reverse proxy with TLS in front (docs/dashboard.md) and set DASHBOARD_PUBLIC_URL to its https address.',
    );
    const tls = lineOf(await doctor(await dashboardOn({ DASHBOARD_PUBLIC_URL: 'https://bot.example.com' })));
    expect(tls).toMatch(/^✔ .*is https:\/\/bot\.example\.com\/callback; Discord accepts DISCORD_CLIENT_SECRET\.$/);
    const local = lineOf(await doctor(await dashboardOn({ DASHBOARD_PUBLIC_URL: 'http://127.0.0.1:8090' })));
    expect(local).toMatch(/^✔ /);
  });

  it('fails a secret Discord refuses, with the fix, never printing it', async () => {
    const wrong = 'a-wrong-client-secret-0123456789';
    const run = await doctor(await dashboardOn({ DISCORD_CLIENT_SECRET: wrong }));
    const line = lineOf(run);
    expect(line).toMatch(
      new RegExp(
        `^✘ .*; Discord refused DISCORD_CLIENT_SECRET for application ${discord.applicationId} \\(HTTP 401 invalid_client\\), so no member can sign in\\.`,
      ),
    );
    expect(line.endsWith(FIX)).toBe(true);
    expect(everything(run)).not.toContain(wrong);
  });

  it('says Discord could not be reached, not that the secret is wrong, when the token address does not answer', async () => {
    const gone = await closedPort();
    const line = lineOf(await doctor(await dashboardOn({ DISCORD_API_URL: `http://127.0.0.1:${gone}/api` })));
    expect(line).toMatch(
      new RegExp(
        `^✘ .*; Discord could not be reached at http://127\\.0\\.0\\.1:${gone}/api/v10/oauth2/token \\(ECONNREFUSED\\), so DISCORD_CLIENT_SECRET is not checked\\. Fix: check the network`,
      ),
    );
    expect(line).not.toContain('refused DISCORD_CLIENT_SECRET');
  });

  it('fails DASHBOARD_PORT held by another process, naming it; passes it held by the running bot', async () => {
    const taken = lineOf(await doctor(await dashboardOn({ DASHBOARD_PORT: String(otherPort) })));
    expect(taken).toMatch(
      process.platform === 'linux'
        ? new RegExp(
            `^✘ ${NAME.replace(/[()]/g, '\\$&')}: port ${otherPort} is taken by node \\(pid ${process.pid}\\), so the bot could not start\\. Fix: stop that process, or set DASHBOARD_PORT to a port nothing uses\\.$`,
          )
        : new RegExp(`^✘ .*: port ${otherPort} is taken by another process`),
    );
    if (process.platform !== 'linux') return;
    // npm start serves the dashboard beside the bot; npm run dashboard serves it alone.
    for (const script of ['start', 'dashboard']) {
      const settings = { ...env, ...(await dashboardOn()) };
      const bot = startBot(settings, script === 'start' ? {} : { script });
      try {
        await bot.waitForLog(
          (line) => line.msg === 'dashboard listening',
          15_000,
          `the dashboard of npm run ${script}`,
        );
        expect(lineOf(await runScript('doctor', settings))).toMatch(
          new RegExp(
            `^✔ ${NAME.replace(/[()]/g, '\\$&')}: the bot \\(pid ${bot.child.pid}\\) listens on port ${settings.DASHBOARD_PORT}; .*; Discord accepts DISCORD_CLIENT_SECRET\\.$`,
          ),
        );
      } finally {
        await bot.stop('SIGKILL');
      }
    }
  });
});
