import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:net';
import { closedPort } from '../../tools/closed-port.js';
import { dashboardSettings, DashboardVisitor } from '../../tools/dashboard-visitor.js';
import { SIGN_INS } from '../../src/dashboard/login.js';
import { startBot } from '../../tools/bot-process.js';
import {
  DEFAULTS,
  MEMBER_PERMISSIONS,
  member,
  nextSnowflake,
  textChannelIdFor,
} from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';

const GUILD = DEFAULTS.guildId;
const OVERVIEW = `/servers/${GUILD}`;
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

let world: World;
let publicUrl: string;
let webhookUrl: string;
/** The dashboard's settings, for `npm run dashboard` started beside the bot on the same store. */
let dashboardEnv: Record<string, string>;

const visitor = () => new DashboardVisitor(publicUrl);

beforeAll(async () => {
  const dashboard = await dashboardSettings();
  publicUrl = dashboard.publicUrl;
  const { url, ...receiver } = await receiverEnv({ REVIEW_CHANNEL_ID: textChannelIdFor(GUILD) });
  webhookUrl = url;
  dashboardEnv = {
    ...receiver,
    ...dashboard.env,
  };
  world = await startWorld({ env: dashboardEnv });
  await world.bot.waitForLog((line) => line.msg === 'dashboard listening');
});
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

describe('GET /login', () => {
  it("sends the browser to Discord's consent page with the client id, both scopes, a code, a state and the redirect URI", async () => {
    const visit = await visitor().get('/login');
    expect(visit.status).toBe(302);
    const to = new URL(visit.location!);
    expect(`${to.origin}${to.pathname}`).toBe(world.discord.oauthAuthorizeUrl);
    expect(to.searchParams.get('client_id')).toBe(world.discord.applicationId);
    expect(to.searchParams.get('scope')!.split(' ').sort()).toEqual(['guilds', 'identify']);
    expect(to.searchParams.get('response_type')).toBe('code');
    expect(to.searchParams.get('state')!.length).toBeGreaterThanOrEqual(16);
    expect(to.searchParams.get('redirect_uri')).toBe(`${publicUrl}/callback`);
  });
});

describe('the callback', () => {
  it('trades the code server-side and signs the member in: their servers are listed, the secret never reaches the page', async () => {
    const before = world.discord.oauthTrades.length;
    const home = await visitor().signIn();
    expect(home.status).toBe(200);
    expect(home.url).toBe(`${publicUrl}/`);
    expect(home.text).toContain('Stand-in Guild');
    expect(home.text).toContain(`href="${OVERVIEW}"`);
    expect(world.discord.oauthTrades.slice(before)).toEqual([{ code: expect.any(String), ok: true }]);
    expect(home.text).not.toContain(world.discord.clientSecret);
  });

  it('returns to the page asked for before signing in, and only to a path on this site', async () => {
    expect((await visitor().signIn(OVERVIEW)).url).toBe(`${publicUrl}${OVERVIEW}`);
    for (const elsewhere of ['//evil.example/x', '/\\evil.example', 'https://evil.example/'])
      expect((await visitor().signIn(elsewhere)).url).toBe(`${publicUrl}/`);
  });

  it('sends a crafted next (/∕∕evil.example, U+2215) back to this site percent-encoded, signed in, never a 500', async () => {
    const browser = visitor();
    const visits = await browser.follow(`/login?next=${encodeURIComponent('/∕∕evil.example')}`);
    const callback = visits.find((visit) => new URL(visit.url).pathname === '/callback');
    expect(callback?.status).toBe(302);
    expect(callback?.location).toBe(`${publicUrl}/%E2%88%95%E2%88%95evil.example`);
    expect((await browser.get('/')).status).toBe(200);
  });
});

describe("a server's page", () => {
  it('answers 200 with the Content-Security-Policy, nosniff and same-origin referrers, and the setup checks', async () => {
    const browser = visitor();
    await browser.signIn();
    const page = await browser.get(OVERVIEW);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.text).toMatch(/<html lang="en">/);
    expect(page.text).toMatch(/class="(ok|bad)"/);
    expect(page.text).not.toMatch(/<script>|style="/);
  });

  it("is in the member's Discord language", async () => {
    world.discord.oauthAs(DEFAULTS.ownerId, {
      locale: 'de',
      guilds: [{ id: GUILD, owner: true, permissions: MEMBER_PERMISSIONS }],
    });
    try {
      const browser = visitor();
      await browser.signIn();
      const page = await browser.get(OVERVIEW);
      expect(page.text).toMatch(/<html lang="de">/);
      expect(page.text).toContain('Einrichtungsstatus');
    } finally {
      world.discord.oauthAs(DEFAULTS.ownerId, { guilds: [{ id: GUILD, owner: true, permissions: (1n << 53n) - 1n }] });
    }
  });
});

describe('cookies', () => {
  it('are HttpOnly and SameSite=Lax (not Secure under http)', async () => {
    const browser = visitor();
    const login = await browser.get('/login');
    const callback = await browser.follow(login.location!);
    const lines = [...login.setCookies, ...callback.flatMap((visit) => visit.setCookies)].filter(
      (line) => !line.includes('Max-Age=0') && !/Expires=Thu, 01 Jan 1970/.test(line),
    );
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatch(/;\s*HttpOnly/i);
      expect(line).toMatch(/;\s*SameSite=Lax/i);
    }
  });
});

describe('a wrong state', () => {
  it('signs nobody in and trades no code', async () => {
    const browser = visitor();
    const login = await browser.get('/login');
    const consent = await browser.get(login.location!);
    const back = new URL(consent.location!);
    back.searchParams.set('state', 'not-the-state-this-browser-was-given');
    const before = world.discord.oauthTrades.length;
    const callback = await browser.get(back.toString());
    expect(callback.status).toBe(403);
    expect(callback.text).toContain('Sign-in not confirmed');
    expect(world.discord.oauthTrades.length).toBe(before);
    expect((await browser.get('/')).status).toBe(302);
  });

  it('signs nobody in when the callback comes to another browser', async () => {
    const starter = visitor();
    const consent = await starter.get((await starter.get('/login')).location!);
    const stranger = visitor();
    expect((await stranger.get(consent.location!)).status).toBe(403);
    expect((await stranger.get('/')).status).toBe(302);
  });
});

describe('no session', () => {
  it.each(['/', OVERVIEW, `${OVERVIEW}/reviews`])('%s sends the visitor to /login and shows nothing', async (path) => {
    const visit = await visitor().get(path);
    expect(visit.status).toBe(302);
    expect(visit.location).toBe(`${publicUrl}/login?next=${encodeURIComponent(path)}`);
    expect(visit.text).not.toContain('Stand-in Guild');
  });
});

describe('a member without Manage Server', () => {
  it('is refused 403, and the server is not in their list', async () => {
    const userId = nextSnowflake();
    world.discord.addMembers([member({ id: userId, permissions: MEMBER_PERMISSIONS })]);
    world.discord.oauthAs(userId, { guilds: [{ id: GUILD, permissions: MEMBER_PERMISSIONS }] });
    try {
      const browser = visitor();
      const home = await browser.signIn();
      expect(home.text).not.toContain(`href="${OVERVIEW}"`);
      expect((await browser.get(OVERVIEW)).status).toBe(403);
      expect((await browser.get(`${OVERVIEW}/reviews`)).status).toBe(403);
    } finally {
      world.discord.oauthAs(DEFAULTS.ownerId, { guilds: [{ id: GUILD, owner: true, permissions: (1n << 53n) - 1n }] });
    }
  });
});

describe("another server's id", () => {
  it('is refused: 403 for a server that is not theirs or has no bot, 404 for an id that is none', async () => {
    const browser = visitor();
    await browser.signIn();
    expect((await browser.get(`/servers/${DEFAULTS.foreignGuildId}`)).status).toBe(403);
    expect((await browser.get(`/servers/${DEFAULTS.foreignGuildId}/reviews`)).status).toBe(403);
    expect((await browser.get('/servers/not-an-id')).status).toBe(404);
  });
});

describe('a POST without its form token', () => {
  it('is refused 403 and changes nothing; with the token it goes through', async () => {
    const browser = visitor();
    const home = await browser.signIn();
    const refused = await browser.post('/logout', {});
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Form not accepted');
    expect((await browser.post('/logout', { _csrf: 'a-token-from-somewhere-else' })).status).toBe(403);
    expect((await browser.get('/')).status).toBe(200);
    expect((await browser.post('/logout', { _csrf: DashboardVisitor.csrfOf(home.text) })).status).toBe(200);
  });
});

describe('the review inbox', () => {
  it("shows an unanswered review's text escaped: a <script> in it stays text", async () => {
    const content = '<script>alert("x")</script> & <img src=x onerror=alert(1)>';
    const id = `rev_${nextSnowflake()}`;
    expect(
      await deliver(webhookUrl, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: nextSnowflake(), content })),
    ).toBe(200);
    // The feed posts it from the row the inbox reads: once posted, the page shows it.
    const channel = textChannelIdFor(GUILD);
    await world.discord.waitUntil(
      () => world.discord.channelMessages(channel).some((message) => JSON.stringify(message.embeds).includes(id)),
      10_000,
      'the review posted to the feed',
    );
    const browser = visitor();
    await browser.signIn();
    const inbox = await browser.get(`${OVERVIEW}/reviews`);
    expect(inbox.status).toBe(200);
    expect(inbox.text).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;',
    );
    expect(inbox.text).not.toContain('<script>alert');
    expect(inbox.text).not.toContain('<img src=x');
  });
});

describe('logout', () => {
  it('ends the session: the cookie is cleared, and a copy of it kept from before opens nothing', async () => {
    const browser = visitor();
    const home = await browser.signIn();
    const kept = new Map(browser.cookies);
    const out = await browser.post('/logout', { _csrf: DashboardVisitor.csrfOf(home.text) });
    expect(out.status).toBe(200);
    expect((await browser.get('/')).status).toBe(302);
    const replay = visitor();
    for (const [name, value] of kept) replay.cookies.set(name, value);
    expect((await replay.get('/')).status).toBe(302);
  });
});

describe('rate limits', () => {
  it('answer 429 with a clear page past the sign-ins one address may start, and other addresses go on', async () => {
    const hammering = new DashboardVisitor(publicUrl, '127.0.0.2');
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_INS.capacity + 5; i += 1) statuses.push((await hammering.get('/login')).status);
    expect(statuses.slice(0, SIGN_INS.capacity - 1).every((status) => status === 302)).toBe(true);
    const refused = await hammering.get('/login');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.text).toContain('Too many requests');
    expect((await visitor().get('/login')).status).toBe(302);
  });
});

describe('npm run dashboard', () => {
  it('serves the pages alone, reading servers over REST without identifying on the gateway', async () => {
    const port = await closedPort();
    const alonePublicUrl = `http://127.0.0.1:${port}`;
    const sessionsBefore = world.discord.gatewaySessions;
    const alone = startBot(
      {
        ...botEnvironment(world.discord, world.sandbox),
        ...dashboardEnv,
        DASHBOARD_PORT: String(port),
        DASHBOARD_PUBLIC_URL: alonePublicUrl,
        WEBHOOK_PORT: '',
      },
      { script: 'dashboard' },
    );
    try {
      await alone.waitForLog((line) => line.msg === 'ready for the dashboard', 15_000, 'the ready line');
      const browser = new DashboardVisitor(alonePublicUrl);
      expect((await browser.signIn()).text).toContain('Stand-in Guild');
      const page = await browser.get(OVERVIEW);
      expect(page.status).toBe(200);
      expect(page.text).toMatch(/class="(ok|bad)"/);
      expect((await browser.get(`/servers/${DEFAULTS.foreignGuildId}`)).status).toBe(403);
      expect(world.discord.gatewaySessions).toBe(sessionsBefore);
    } finally {
      expect((await alone.stop()).code).toBe(0);
    }
  });

  it('stops with exit code 78 naming DASHBOARD_PORT when the port is taken', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const alone = startBot(
        {
          ...botEnvironment(world.discord, world.sandbox),
          ...dashboardEnv,
          DASHBOARD_PORT: String(port),
          WEBHOOK_PORT: '',
        },
        { script: 'dashboard' },
      );
      const exit = await alone.exited;
      expect(exit.code).toBe(78);
      expect(alone.stderr()).toContain('DASHBOARD_PORT');
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('a sign-in Discord refuses', () => {
  it('says a wrong DISCORD_CLIENT_SECRET is the operator’s to fix, on the page and in the log, never printing it', async () => {
    const port = await closedPort();
    const alonePublicUrl = `http://127.0.0.1:${port}`;
    const wrong = 'a-wrong-client-secret-0123456789';
    const alone = startBot(
      {
        ...botEnvironment(world.discord, world.sandbox),
        ...dashboardEnv,
        DASHBOARD_PORT: String(port),
        DASHBOARD_PUBLIC_URL: alonePublicUrl,
        DISCORD_CLIENT_SECRET: wrong,
        WEBHOOK_PORT: '',
      },
      { script: 'dashboard' },
    );
    try {
      await alone.waitForLog((line) => line.msg === 'ready for the dashboard', 15_000, 'the ready line');
      const page = await new DashboardVisitor(alonePublicUrl).signIn();
      expect(page.status).toBe(500);
      expect(page.text).toContain('Sign-in is not set up right');
      expect(page.text).toContain('DISCORD_CLIENT_SECRET');
      expect(page.text).not.toContain('did not answer');
      const line = await alone.waitForLog((l) => l.level === 50, 5_000, 'the error line');
      expect(line).toMatchObject({
        status: 401,
        error: 'invalid_client',
        msg: expect.stringMatching(/Discord refused DISCORD_CLIENT_SECRET, so nobody can sign in; Developer Portal/),
      });
      expect(page.text + JSON.stringify(alone.logs)).not.toContain(wrong);
    } finally {
      expect((await alone.stop()).code).toBe(0);
    }
  });

  it('asks the member to sign in again when Discord refuses the code (used already, or too old)', async () => {
    const browser = visitor();
    const consent = new URL((await browser.get('/login')).location!);
    const state = consent.searchParams.get('state')!;
    const page = await browser.get(`/callback?code=not-a-code-discord-gave&state=${encodeURIComponent(state)}`);
    expect(page.status).toBe(400);
    expect(page.text).toContain('Sign-in expired');
    expect(page.text).not.toContain('did not answer');
  });
});
