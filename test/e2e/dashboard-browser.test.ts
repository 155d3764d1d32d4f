import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { SERVER_PAGES, serverPath } from '../../src/dashboard/nav.js';
import { ANNOUNCE_FIELDS, PREVIEW_ID } from '../../src/dashboard/pages/announcements.js';
import { pagePath, PAGES } from '../../src/dashboard/pages/form.js';
import { REPLY_FIELDS } from '../../src/dashboard/pages/reviews.js';
import { dashboardSettings } from '../../tools/dashboard-visitor.js';
import { textOf } from '../../tools/conversation.js';
import { DEFAULTS, member, textChannelIdFor } from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { CRITIC, CRITIC_REVIEW, VOTER, VOTER_REVIEW } from '../../tools/seed.js';
import { startWorld, type World } from '../../tools/world.js';
import { launchBrowser, outputFolder } from '../support/browser.js';

/**
 * The dashboard in a real browser (Debian's chromium through playwright-core): sign-in through the
 * stand-in's consent page, every server page drawn at a phone's and a desktop's width (screenshots
 * in test-output/dashboard/), no console error or CSP violation anywhere, the live preview of an
 * announcement template, and a reply sent from the inbox. Run alone: `--maxWorkers=1`.
 */

const GUILD = DEFAULTS.guildId;
const FEED = textChannelIdFor(GUILD);
const SHOTS = outputFolder('dashboard');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** Chromium starts in about a second; a page and its script a few hundred ms later. Generous for a busy machine. */
const STEP_MS = 15_000;
const TEST_MS = 60_000;

/** The reviews waiting in the inbox: both seeded in the sandbox, so a reply to either is accepted there. */
const REVIEWS = [
  { id: CRITIC_REVIEW, authorId: CRITIC, content: 'Friendly people, but the rules channel is hard to find.' },
  { id: VOTER_REVIEW, authorId: VOTER, content: 'Best server for weekend game nights.' },
];

let world: World;
let publicUrl: string;
let browser: Browser;
/** Signed in once at desktop width; the phone context gets the same cookies. */
let desktop: BrowserContext;
let phone: BrowserContext;

/** What went wrong in a page that a member would not see on screen but a browser reports. */
interface Trouble {
  problems: string[];
}

/**
 * Records the page's console errors, uncaught exceptions and Content-Security-Policy violations
 * (the event, and chromium's console line "Refused to …" that comes with it) from now on.
 */
async function watch(page: Page): Promise<Trouble> {
  const trouble: Trouble = { problems: [] };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      trouble.problems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => trouble.problems.push(`page error: ${error.message}`));
  // Injected by the browser itself (not an inline script of the page), so the CSP does not stop it.
  await page.exposeFunction('reportCspViolation', (what: string) => trouble.problems.push(`CSP violation: ${what}`));
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (event) => window.reportCspViolation(" +
      "event.violatedDirective + ' blocked ' + (event.blockedURI || 'an inline source')));",
  );
  return trouble;
}

async function newPage(context: BrowserContext): Promise<{ page: Page; trouble: Trouble }> {
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_MS);
  return { page, trouble: await watch(page) };
}

/** Opens a path and waits for its scripts to have run: the answer, so its status and headers can be read. */
async function open(page: Page, where: string) {
  const response = await page.goto(new URL(where, publicUrl).toString(), { waitUntil: 'load' });
  if (!response) throw new Error(`no answer for ${where}`);
  return response;
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

/** The page fits the viewport's width: nothing to scroll sideways but inside a table's own box. */
const pageWidth = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth');

/**
 * What a member would read as broken: a `{placeholder}` left unfilled in the page's text (code, the
 * template's own fields and the preview aside), a cell whose text its table cuts off, a time without
 * its zone, and (at a desktop's width) a table that must be scrolled sideways.
 */
const flaws = (page: Page, desktopWide: boolean) =>
  page.evaluate<string[]>(`(() => {
    const found = [];
    const body = document.body.cloneNode(true);
    body.querySelectorAll('code, textarea, input, select, pre').forEach((el) => el.remove());
    const left = /\\{[a-z_]+\\}/.exec(body.textContent || '');
    if (left) found.push('placeholder left: ' + left[0]);
    document.querySelectorAll('td, th').forEach((cell) => {
      if (cell.scrollWidth > cell.clientWidth + 1) found.push('cut off in a table: ' + cell.textContent);
    });
    if (${desktopWide})
      document.querySelectorAll('table').forEach((table) => {
        if (table.scrollWidth > table.clientWidth + 1) found.push('a table wider than its page: ' + table.scrollWidth + ' px');
      });
    document.querySelectorAll('time').forEach((time) => {
      if (!/^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} \\S+$/.test(time.textContent || ''))
        found.push('a time not in the one format with its zone: ' + time.textContent);
    });
    return found;
  })()`);

/** The answer to a form sent to this page (not the preview's fetch, which posts elsewhere). */
const postTo = (address: string) => (response: Response) =>
  response.request().method() === 'POST' && new URL(response.url()).pathname === address;

/**
 * The notice a page shows after a change was saved (redirect 303, then the page again). Each page
 * here is opened fresh, so a notice found is the new page's.
 * DEPENDS ON W1/W2: the notice's markup is theirs; it is looked for by its role (status) or class.
 */
async function savedNotice(page: Page): Promise<string> {
  const notice = page.locator('[role="status"], .notice, .saved').first();
  await notice.waitFor({ state: 'visible' });
  return (await notice.textContent()) ?? '';
}

beforeAll(async () => {
  const dashboard = await dashboardSettings();
  publicUrl = dashboard.publicUrl;
  const { url: webhookUrl, ...receiver } = await receiverEnv({ REVIEW_CHANNEL_ID: FEED });
  world = await startWorld({
    env: {
      ...receiver,
      ...dashboard.env,
    },
  });
  await world.bot.waitForLog((line) => line.msg === 'dashboard listening');
  // The inbox names a review's author as the server knows them.
  world.discord.addMembers([member({ id: CRITIC, username: 'critic', nick: 'Carla the Critic' })]);
  for (const review of REVIEWS)
    expect(await deliver(webhookUrl, WEBHOOK_TOKEN, reviewEvent(GUILD, { ...review, rating: 3 }))).toBe(200);
  // Stored before they are posted: once both feed posts are there, the inbox lists both.
  await world.discord.waitUntil(
    () => REVIEWS.every(({ id }) => world.discord.channelMessages(FEED).some((m) => textOf(m).includes(id))),
    10_000,
    'the feed posts of the reviews',
  );
  browser = await launchBrowser();
  desktop = await browser.newContext({ viewport: DESKTOP });
  phone = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, hasTouch: true });
}, TEST_MS);

afterAll(async () => {
  await browser?.close();
  await world?.close();
  removeStoreFiles();
});

describe('signing in, in a real browser', () => {
  it(
    "follows /login to the stand-in's consent page and back, and lands on the servers list signed in",
    async () => {
      const { page, trouble } = await newPage(desktop);
      await open(page, '/login');
      await page.waitForURL(`${publicUrl}/`);
      await page.getByRole('link', { name: 'Stand-in Guild' }).waitFor();
      expect(await page.getAttribute(`a[href="${serverPath(GUILD)}"]`, 'href')).toBe(serverPath(GUILD));
      await phone.addCookies(await desktop.cookies());
      await shot(page, 'servers');
      expect(trouble.problems).toEqual([]);
      await page.close();
    },
    TEST_MS,
  );

  it(
    'keeps the session in an HttpOnly cookie: the page signs in, but document.cookie does not show it',
    async () => {
      const cookies = await desktop.cookies(publicUrl);
      expect(cookies.length).toBeGreaterThan(0);
      for (const cookie of cookies) {
        expect(cookie.httpOnly).toBe(true);
        expect(cookie.sameSite).toBe('Lax');
      }
      const { page } = await newPage(desktop);
      expect((await open(page, '/')).status()).toBe(200);
      expect(await page.evaluate<string>('document.cookie')).toBe('');
      await page.close();
    },
    TEST_MS,
  );
});

describe("every server page (nav.ts's SERVER_PAGES) and the servers list", () => {
  it.each(SERVER_PAGES.map((p) => [p.id, p.path] as const))(
    '%s: 200 with the CSP, in the menu, no console error or CSP violation, fits a phone; screenshots',
    async (id, pagePathPart) => {
      for (const [context, name, width] of [
        [desktop, id, DESKTOP.width],
        [phone, `${id}-phone`, PHONE.width],
      ] as const) {
        const { page, trouble } = await newPage(context);
        const response = await open(page, serverPath(GUILD, pagePathPart));
        expect(response.status()).toBe(200);
        expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
        const menu = await page.locator('nav.pages a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
        expect(menu).toEqual(SERVER_PAGES.map((p) => serverPath(GUILD, p.path)));
        expect(await page.getAttribute('nav.pages a[aria-current="page"]', 'href')).toBe(
          serverPath(GUILD, pagePathPart),
        );
        await shot(page, name);
        expect(await pageWidth(page)).toBeLessThanOrEqual(width);
        expect(await flaws(page, width === DESKTOP.width)).toEqual([]);
        expect(trouble.problems).toEqual([]);
        await page.close();
      }
    },
    TEST_MS,
  );

  it(
    "draws the stats picture at a size its labels read at on a phone, scrolling in its own box, not the page's",
    async () => {
      const { page, trouble } = await newPage(phone);
      expect((await open(page, serverPath(GUILD, `/${PAGES.stats}`))).status()).toBe(200);
      await page.locator('img.chart').waitFor();
      const drawn = await page.evaluate<number>("document.querySelector('img.chart').getBoundingClientRect().width");
      expect(drawn).toBeGreaterThanOrEqual(700);
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
      expect(trouble.problems).toEqual([]);
      await page.close();
    },
    TEST_MS,
  );

  it(
    'the servers list fits a phone too',
    async () => {
      const { page, trouble } = await newPage(phone);
      expect((await open(page, '/')).status()).toBe(200);
      await shot(page, 'servers-phone');
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
      expect(trouble.problems).toEqual([]);
      await page.close();
    },
    TEST_MS,
  );
});

// DEPENDS ON W1 (the announcements routes, the preview endpoint and the served PREVIEW_SCRIPT): before
// that merge the page answers 404 and this fails at its first step.
describe('the announcement template, with its live preview', () => {
  it(
    'shows the typed template in the preview without a page load, saves it, says so, and shows it saved',
    async () => {
      const { page, trouble } = await newPage(desktop);
      const address = pagePath(GUILD, PAGES.announcements);
      expect((await open(page, address)).status()).toBe(200);
      const marker = `thanks-${randomBytes(4).toString('hex')}`;
      const template = `{user} voted! ${marker}, {votes_month} this month`;
      const field = page.locator(`form.announce-form textarea[name="${ANNOUNCE_FIELDS.template}"]`);
      await field.fill('');
      await field.pressSequentially(template, { delay: 5 });
      // The progressive script asks the server (the same template code as /setup) and fills the block.
      // (A locator, not waitForFunction: a string predicate is eval'd in the page, which the CSP refuses.)
      await page.locator(`#${PREVIEW_ID}`, { hasText: marker }).waitFor();
      expect(page.url()).toBe(new URL(address, publicUrl).toString());
      expect(await page.locator(`#${PREVIEW_ID}`).textContent()).not.toContain('{user}');
      await shot(page, 'announcements-live-preview');

      const [saved] = await Promise.all([
        page.waitForResponse(postTo(address)),
        page.locator('form.announce-form button[type="submit"]:not([formaction])').click(),
      ]);
      expect(saved.status()).toBe(303);
      expect(await savedNotice(page)).not.toBe('');
      expect(await field.inputValue()).toBe(template);
      await shot(page, 'announcements-saved');
      expect(trouble.problems).toEqual([]);
      await page.close();
    },
    TEST_MS,
  );
});

// DEPENDS ON W2 (the inbox with reply forms, pages/reviews.ts, and POST /servers/{id}/reviews): before that
// merge the inbox is read-only and this fails looking for the reply form.
describe('the review inbox', () => {
  it(
    'sends a pinned reply typed in the form: the service gets it, and the review leaves the inbox',
    async () => {
      const { page, trouble } = await newPage(phone);
      const address = pagePath(GUILD, PAGES.reviews);
      expect((await open(page, address)).status()).toBe(200);
      const card = page.locator('article.review', {
        has: page.locator(`input[name="${REPLY_FIELDS.review}"][value="${CRITIC_REVIEW}"]`),
      });
      await card.waitFor();
      expect(await card.locator('h2').textContent()).toBe('Carla the Critic');
      const text = `Thanks! The rules are pinned in #welcome now (${randomBytes(3).toString('hex')}).`;
      await card.locator(`textarea[name="${REPLY_FIELDS.reply}"]`).pressSequentially(text, { delay: 2 });
      await card.locator(`input[name="${REPLY_FIELDS.pinned}"]`).check();
      const [sent] = await Promise.all([page.waitForResponse(postTo(address)), card.locator('button').click()]);
      expect(sent.status()).toBe(303);
      expect(await savedNotice(page)).not.toBe('');
      await world.discord.waitUntil(() => world.sandbox.repliesTo(CRITIC_REVIEW).length > 0, STEP_MS, 'the reply');
      expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toEqual([
        expect.objectContaining({ content: text, pinned: true }),
      ]);
      expect(await card.count()).toBe(0);
      await page
        .locator(`input[name="${REPLY_FIELDS.review}"][value="${VOTER_REVIEW}"]`)
        .waitFor({ state: 'attached' });
      await shot(page, 'reviews-answered-phone');
      expect(trouble.problems).toEqual([]);
      await page.close();
    },
    TEST_MS,
  );
});
