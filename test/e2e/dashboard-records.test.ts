import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { en } from '../../src/i18n/catalogs/en.js';
import { textOf } from '../../tools/conversation.js';
import { dashboardSettings, DashboardVisitor } from '../../tools/dashboard-visitor.js';
import {
  DEFAULTS,
  MEMBER_PERMISSIONS,
  member,
  MODERATOR_PERMISSIONS,
  modalSubmit,
  nextSnowflake,
  OptionType,
  slashCommand,
  textChannelIdFor,
  type CommandOption,
  type Message,
} from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { sendAs } from '../../tools/list-senders/send.js';
import { receiverEnv, removeStoreFiles } from '../../tools/receiver-env.js';
import { CRITIC, CRITIC_REVIEW, VOTER, VOTER_REVIEW } from '../../tools/seed.js';
import { startWorld, type World } from '../../tools/world.js';
import { readUntil } from '../support/poll-until.js';

// Issue 36's records pages over HTTP, on the built bot in many-server mode (so secrets are the
// server's own, kept sealed): the server is set up with /setup through the stand-in, then read and
// changed on the dashboard as its owner signs in.
const GUILD = DEFAULTS.guildId;
/** A second server the admin manages, never set up. */
const UNSET = nextSnowflake();
const CHANNEL = textChannelIdFor(GUILD);
const PAGE = (path: string) => `/servers/${GUILD}/${path}`;
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const PUBLIC_URL = 'https://bot.example.com';
const admin = member({ permissions: MODERATOR_PERMISSIONS });

let world: World;
let publicUrl: string;
let receiverUrl: string;
/** The Guilds webhook token /setup webhook made, whole. */
let token: string;

const visitor = () => new DashboardVisitor(publicUrl);
const setup = (options: CommandOption[]) =>
  world.discord.sendInteraction(slashCommand({ name: 'setup', guildId: GUILD, member: admin, options }));
const sub = (name: string, options: CommandOption[] = []): CommandOption[] => [
  { name, type: OptionType.Subcommand, options },
];
const channel = (kind: string) =>
  setup(
    sub('channel', [
      { name: 'kind', type: OptionType.String, value: kind },
      { name: 'target', type: OptionType.Channel, value: CHANNEL },
    ]),
  ).waitForMessage();
const fieldOf = (message: Message, name: string) =>
  ((message.embeds[0]?.fields ?? []) as Array<{ name: string; value: string }>).find((f) => f.name === name)?.value;
const lines = () => world.discord.channelMessages(CHANNEL).map((message) => textOf(message));
const toGuilds = (event: object, with_ = token) => deliver(`${receiverUrl}/${GUILD}`, with_, event);
/** Reads the page until `ready` holds: the inbox handles a delivery a moment after the receiver answered it, and says so to no one. */
const until = (browser: DashboardVisitor, path: string, ready: (text: string) => boolean) =>
  readUntil(
    () => browser.get(path),
    (visit) => ready(visit.text),
    { what: `${path} to show it` },
  );

async function signedIn(): Promise<{ browser: DashboardVisitor; csrf: string }> {
  const browser = visitor();
  const home = await browser.signIn();
  return { browser, csrf: DashboardVisitor.csrfOf(home.text) };
}

beforeAll(async () => {
  const dashboard = await dashboardSettings();
  publicUrl = dashboard.publicUrl;
  const { url, ...receiver } = await receiverEnv({ WEBHOOK_TOKEN: '', WEBHOOK_PUBLIC_URL: PUBLIC_URL });
  receiverUrl = url;
  world = await startWorld({
    discord: { otherGuildIds: [UNSET] },
    env: {
      ...receiver,
      DISCORD_GUILD_ID: '',
      SERVICE_API_KEY: '',
      SERVICE_APP_ID: '',
      MODERATOR_ROLE_IDS: '',
      REVIEW_LOG_CHANNEL_ID: '',
      SECRETS_KEY: randomBytes(32).toString('base64'),
      ...dashboard.env,
    },
  });
  await world.bot.waitForLog((line) => line.msg === 'dashboard listening');
  const form = await setup(sub('credentials')).waitForModal();
  const { apiKey, appId } = world.sandbox;
  await world.discord
    .sendInteraction(
      modalSubmit({
        customId: form.custom_id,
        guildId: GUILD,
        member: admin,
        fields: { api_key: apiKey, app_id: appId },
      }),
    )
    .waitForMessage(10_000);
  for (const kind of ['votes', 'review', 'audit']) await channel(kind);
  token = (fieldOf(await setup(sub('webhook')).waitForMessage(), 'Token') ?? '').replace(/`/g, '');
  await setup([
    {
      name: 'listing',
      type: OptionType.SubcommandGroup,
      options: sub('add', [{ name: 'site', type: OptionType.String, value: 'discordplace' }]),
    },
  ]).waitForMessage();
}, 60_000);
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

describe('each records page', () => {
  it.each(['listings', 'reviews', 'deliveries', 'stats'])('%s answers 200 with the CSP, in the menu', async (path) => {
    const { browser } = await signedIn();
    const page = await browser.get(PAGE(path));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(page.text).toContain(`href="${PAGE(path)}" aria-current="page"`);
    expect(page.text).not.toMatch(/<script>|style="/);
  });
});

describe('credentials and listings', () => {
  it('shows each secret as its last four only, with the address', async () => {
    const { browser } = await signedIn();
    const page = await browser.get(PAGE('listings'));
    expect(page.text).toContain(`${PUBLIC_URL}/webhook/${GUILD}`);
    expect(page.text).toContain(`••••${token.slice(-4)}`);
    expect(page.text).not.toContain(token);
    expect(page.text).toContain('discord.place');
  });

  it('reveals a secret once, for a POST with the form token only, and says so in the audit channel', async () => {
    const { browser, csrf } = await signedIn();
    const form = { site: 'guilds', action: 'reveal' };
    const refused = await browser.post(PAGE('listings'), form);
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain(token);
    const shown = await browser.post(PAGE('listings'), { ...form, _csrf: csrf });
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('no-store');
    expect(shown.text).toContain(`<code class="secret">${token}</code>`);
    await world.discord.waitUntil(() => lines().some((line) => line.includes('revealed on the dashboard')));
    const audit = lines().find((line) => line.includes('revealed on the dashboard'))!;
    expect(audit).toContain('Stand-in Owner');
    expect(audit).toContain(token.slice(-4));
    expect(audit).not.toContain(token);
    expect((await browser.get(PAGE('listings'))).text).not.toContain(token);
  });

  it('rotates the webhook token: the new one is shown once and stored, the old one is refused', async () => {
    const { browser, csrf } = await signedIn();
    const old = token;
    const rotated = await browser.post(PAGE('listings'), { site: 'guilds', action: 'rotate', _csrf: csrf });
    expect(rotated.status).toBe(200);
    const fresh = /<code class="secret">([^<]+)<\/code>/.exec(rotated.text)?.[1];
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(old);
    token = fresh!;
    expect(await toGuilds(voteEvent(GUILD, VOTER), old)).toBe(401);
    expect(await toGuilds(voteEvent(GUILD, VOTER))).toBe(200);
    await world.discord.waitUntil(() => lines().some((line) => line.includes('Webhook token made')));
  });

  it('adds a list from its form as /setup listing add does: the secret shown once, the vote length kept, then taken', async () => {
    const { browser, csrf } = await signedIn();
    const before = await browser.get(PAGE('listings'));
    expect(before.text).toContain('<option value="discadia">Discadia</option>');
    // discord.place is on already (beforeAll): not offered again.
    expect(before.text).not.toContain('<option value="discordplace">');
    const form = { action: 'add', site: 'discadia', _csrf: csrf };
    const refused = await browser.post(PAGE('listings'), { ...form, vote_hours: '500' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Give a whole number of hours from 1 to 168.');
    expect(refused.text).toContain('<option value="discadia">Discadia</option>');
    const added = await browser.post(PAGE('listings'), { ...form, vote_hours: '48' });
    expect(added.status).toBe(200);
    expect(added.headers.get('cache-control')).toBe('no-store');
    const secret = /<code class="secret">([^<]+)<\/code>/.exec(added.text)?.[1];
    expect(secret).toMatch(/^[\x21-\x7e]{16,}$/);
    expect(added.text).toContain('48 h (set)');
    expect(added.text).not.toContain('<option value="discadia">');
    const vote = { guildId: GUILD, memberId: VOTER, memberName: 'Voter', weight: 1 };
    const sent = await sendAs('discadia', {
      url: `${receiverUrl}/${GUILD}/discadia`,
      secret: secret!,
      vote,
      delayScale: 0,
    });
    expect(sent.status).toBe(200);
    expect((await browser.get(PAGE('listings'))).text).not.toContain(secret);
  });

  it('adds Top.gg: its address and where to paste it, then the secret Top.gg makes pasted into the card', async () => {
    const { browser, csrf } = await signedIn();
    const added = await browser.post(PAGE('listings'), { action: 'add', site: 'topgg', _csrf: csrf });
    expect(added.status).toBe(200);
    expect(added.text).toContain(`${PUBLIC_URL}/webhook/${GUILD}/topgg`);
    expect(added.text).toContain('Webhooks');
    expect(added.text).not.toContain('**');
    expect(added.text).toMatch(/name="site" value="topgg"[\s\S]*name="action" value="rotate"[\s\S]*name="secret"/);
    // Nothing is kept before the secret is pasted: the list is still offered.
    expect((await browser.get(PAGE('listings'))).text).toContain('<option value="topgg">Top.gg</option>');
    const secret = `whs_${randomBytes(18).toString('hex')}`;
    const saved = await browser.post(PAGE('listings'), { site: 'topgg', action: 'rotate', secret, _csrf: csrf });
    expect(saved.status).toBe(303);
    const page = await browser.get(saved.location!);
    expect(page.text).toContain(`••••${secret.slice(-4)}`);
    expect(page.text).not.toContain('<option value="topgg">');
  });

  it("saves Top.gg's own secret pasted in the form, shown after by its last four; a secret with spaces is refused", async () => {
    const { browser, csrf } = await signedIn();
    const form = { site: 'topgg', action: 'rotate', _csrf: csrf };
    const refused = await browser.post(PAGE('listings'), { ...form, secret: 'has spaces in it' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Nothing changed.');
    const secret = `whs_${randomBytes(18).toString('hex')}`;
    const saved = await browser.post(PAGE('listings'), { ...form, secret });
    expect(saved.status).toBe(303);
    const page = await browser.get(saved.location!);
    expect(page.text).toContain('Secret saved');
    expect(page.text).toContain(`••••${secret.slice(-4)}`);
    expect(page.text).not.toContain(secret);
  });

  it('replaces the service credentials only after the service accepts them, audited by their ends', async () => {
    const { browser, csrf } = await signedIn();
    const { apiKey, appId } = world.sandbox;
    expect((await browser.get(PAGE('listings'))).text).toContain(`••••${apiKey.slice(-4)}`);
    const form = { action: 'credentials', _csrf: csrf };
    const refused = await browser.post(PAGE('listings'), { ...form, api_key: 'wrong-key-0000', app_id: appId });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Nothing changed.');
    expect(refused.text).not.toContain('wrong-key-0000');
    const saved = await browser.post(PAGE('listings'), { ...form, api_key: ` ${apiKey} `, app_id: appId });
    expect(saved.status).toBe(303);
    expect((await browser.get(saved.location!)).text).toContain('Credentials saved');
    await world.discord.waitUntil(() =>
      lines().some((line) => line.includes('Changed on the dashboard by') && line.includes('Credentials saved')),
    );
    expect(lines().join('\n')).not.toContain(apiKey);
  });

  it('adds a forwarding destination with its secret shown once, refuses plain http, then removes it', async () => {
    const { browser, csrf } = await signedIn();
    // Loopback and no FORWARD_ALLOW_PRIVATE: a vote taken meanwhile is refused at its send, never sent.
    const url = 'https://127.0.0.1:9/votes';
    const refused = await browser.post(PAGE('listings'), {
      action: 'forward-add',
      forward_url: 'http://127.0.0.1:9/votes',
      _csrf: csrf,
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('https only');
    const added = await browser.post(PAGE('listings'), { action: 'forward-add', forward_url: url, _csrf: csrf });
    expect(added.status).toBe(200);
    expect(added.headers.get('cache-control')).toBe('no-store');
    const secret = /<code class="secret">(vrf_[^<]+)<\/code>/.exec(added.text)?.[1];
    expect(secret).toBeDefined();
    const later = (await browser.get(PAGE('listings'))).text;
    expect(later).toContain(url);
    expect(later).toContain(`••••${secret!.slice(-4)}`);
    expect(later).not.toContain(secret!);
    const removed = await browser.post(PAGE('listings'), { action: 'forward-remove', forward_url: url, _csrf: csrf });
    expect(removed.text).toContain('are no longer forwarded');
    expect((await browser.get(PAGE('listings'))).text).not.toContain(url);
  });

  it('refuses a list it does not know with 400, saying what to fix, and changes nothing', async () => {
    const { browser, csrf } = await signedIn();
    const refused = await browser.post(PAGE('listings'), { site: 'nowhere', action: 'rotate', _csrf: csrf });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Unknown list');
    expect(refused.text).toContain('Nothing changed.');
  });
});

describe('the review inbox', () => {
  const content = '<script>alert("x")</script> Nice server';

  beforeAll(async () => {
    expect(await toGuilds(reviewEvent(GUILD, { id: CRITIC_REVIEW, authorId: CRITIC, content, rating: 2 }))).toBe(200);
  });

  it('shows the review escaped, with a reply form', async () => {
    const { browser } = await signedIn();
    const inbox = await until(browser, PAGE('reviews'), (text) => text.includes('alert'));
    expect(inbox.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Nice server');
    expect(inbox.text).not.toContain('<script>alert');
    expect(inbox.text).toContain(`name="review" value="${CRITIC_REVIEW}"`);
  });

  it('refuses a reply from a member the bot no longer sees with Manage Server: 403, nothing posted', async () => {
    const userId = nextSnowflake();
    world.discord.addMembers([member({ id: userId, permissions: MEMBER_PERMISSIONS })]);
    // Discord's list (written at sign-in) still says Manage Server; the bot's own view says no.
    world.discord.oauthAs(userId, { guilds: [{ id: GUILD, permissions: MODERATOR_PERMISSIONS }] });
    try {
      const { browser, csrf } = await signedIn();
      const form = { review: CRITIC_REVIEW, reply: 'Not mine to send', _csrf: csrf };
      expect((await browser.post(PAGE('reviews'), form)).status).toBe(403);
      expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toEqual([]);
    } finally {
      world.discord.oauthAs(DEFAULTS.ownerId, {
        username: 'Stand-in Owner',
        guilds: [{ id: GUILD, owner: true, permissions: (1n << 53n) - 1n }],
      });
    }
  });

  it('refuses an empty reply with 400 and the rule, posting nothing', async () => {
    const { browser, csrf } = await signedIn();
    const refused = await browser.post(PAGE('reviews'), { review: CRITIC_REVIEW, reply: '   ', _csrf: csrf });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Your reply is empty');
    expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toEqual([]);
  });

  it('shows a reply the service could not take again in its form, text and pin kept, on the page it was sent from', async () => {
    const { browser, csrf } = await signedIn();
    world.sandbox.setFault('postReply', { status: 503, times: 1 });
    const text = 'A long answer <b>typed</b> with care & kept';
    const refused = await browser.post(PAGE('reviews'), {
      review: CRITIC_REVIEW,
      reply: text,
      pinned: 'on',
      page: '1',
      _csrf: csrf,
    });
    // A POST the service failed may have reached it: said as the Reply button says it, 502, and not
    // "Nothing changed".
    expect(refused.status).toBe(502);
    expect(refused.text).toContain(en['error.replyUnknown.title']);
    expect(refused.text).not.toContain(en['dashboard.pages.notSaved']);
    expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toEqual([]);
    const form = refused.text.slice(refused.text.indexOf(`value="${CRITIC_REVIEW}"`));
    expect(form.slice(0, form.indexOf('</form>'))).toContain(
      '>A long answer &lt;b&gt;typed&lt;/b&gt; with care &amp; kept</textarea>',
    );
    expect(form.slice(0, form.indexOf('</form>'))).toMatch(/name="pinned" value="on" checked/);
  });

  it('posts a reply to the service, pinned as chosen, audits it with the member, and the review leaves the inbox', async () => {
    const { browser, csrf } = await signedIn();
    expect((await browser.post(PAGE('reviews'), { review: CRITIC_REVIEW, reply: 'Thanks!' })).status).toBe(403);
    const sent = await browser.post(PAGE('reviews'), {
      review: CRITIC_REVIEW,
      reply: 'Thanks, we are on it',
      pinned: 'on',
      _csrf: csrf,
    });
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(`${publicUrl}${PAGE('reviews')}?done=replied`);
    expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toEqual([
      expect.objectContaining({ content: 'Thanks, we are on it', pinned: true }),
    ]);
    const after = await browser.get(sent.location!);
    expect(after.text).toContain('Reply posted');
    expect(after.text).not.toContain(`value="${CRITIC_REVIEW}"`);
    await world.discord.waitUntil(() =>
      lines().some((line) => line.includes('Posted on the dashboard by Stand-in Owner')),
    );
    // Sent again (a second tab): the review no longer waits, nothing posted twice.
    const again = await browser.post(PAGE('reviews'), { review: CRITIC_REVIEW, reply: 'Twice?', _csrf: csrf });
    expect(again.status).toBe(400);
    expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toHaveLength(1);
  });

  it('posts unpinned when the box is left unticked', async () => {
    expect(await toGuilds(reviewEvent(GUILD, { id: VOTER_REVIEW, authorId: VOTER, rating: 5 }))).toBe(200);
    const { browser, csrf } = await signedIn();
    await until(browser, PAGE('reviews'), (text) => text.includes(VOTER_REVIEW));
    const sent = await browser.post(PAGE('reviews'), { review: VOTER_REVIEW, reply: 'Glad you like it', _csrf: csrf });
    expect(sent.status).toBe(303);
    expect(world.sandbox.repliesTo(VOTER_REVIEW)).toEqual([
      expect.objectContaining({ content: 'Glad you like it', pinned: false }),
    ]);
  });
});

describe('the delivery log', () => {
  it('lists a delivery made to the receiver, with its event and outcome', async () => {
    expect(await toGuilds(voteEvent(GUILD, nextSnowflake()))).toBe(200);
    const { browser } = await signedIn();
    const log = await until(browser, PAGE('deliveries'), (text) => text.includes('<code>vote</code>'));
    expect(log.text).toMatch(/<tr class="good">[\s\S]*?<code>vote<\/code>/);
    expect(log.text).toContain('<code>review</code>');
  });
});

describe('a server not set up yet', () => {
  it('says on its pages where it is set up, with no placeholder left, and not that a visit changed nothing', async () => {
    const owner = { id: GUILD, owner: true };
    world.discord.oauthAs(DEFAULTS.ownerId, {
      username: 'Stand-in Owner',
      guilds: [owner, { id: UNSET, owner: true }],
    });
    let page;
    try {
      page = await (await signedIn()).browser.get(`/servers/${UNSET}/stats`);
    } finally {
      world.discord.oauthAs(DEFAULTS.ownerId, {
        username: 'Stand-in Owner',
        guilds: [{ ...owner, permissions: (1n << 53n) - 1n }],
      });
    }
    expect(page.status).toBe(200);
    expect(page.text).toContain('Not set up yet');
    expect(page.text).toContain('/setup credentials (or saves them on the Credentials and listings page here)');
    expect(page.text).not.toMatch(/\{[a-z]+\}/);
    expect(page.text).not.toContain('Nothing changed');
  });
});

describe('the stats', () => {
  it("shows the votes as numbers in the page's table, and the same picture as a PNG", async () => {
    const { browser } = await signedIn();
    const page = await until(browser, PAGE('stats'), (text) => /[1-9]\d* votes in 30 days/.test(text));
    expect(page.text).toMatch(/[1-9]\d* votes in 30 days/);
    expect(page.text).toContain(`<img class="chart" src="${PAGE('stats.png')}"`);
    const picture = await fetch(`${publicUrl}${PAGE('stats.png')}`, {
      headers: { cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(picture.headers.get('cache-control')).toContain('private');
    const bytes = Buffer.from(await picture.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });
});
