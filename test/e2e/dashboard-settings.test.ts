import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Servers } from '../../src/servers/servers.js';
import { openStore } from '../../src/store/index.js';
import { textOf } from '../../tools/conversation.js';
import { dashboardSettings, DashboardVisitor } from '../../tools/dashboard-visitor.js';
import {
  DEFAULTS,
  member,
  MEMBER_PERMISSIONS,
  MODERATOR_PERMISSIONS,
  nextSnowflake,
  OptionType,
  slashCommand,
  textChannelIdFor,
  voterRoleIdFor,
  type CommandOption,
} from '../../tools/discord-standin/index.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { startWorld, type World } from '../../tools/world.js';

// The settings pages over HTTP against the built bot: each form calls /setup's own function, so the
// store, /setup status and the audit channel see a dashboard change as they see the command's.
const A = DEFAULTS.guildId;
const B = nextSnowflake();
const CHANNEL = (guildId: string) => textChannelIdFor(guildId);
const MANAGE_GUILD = 1n << 5n;
const ALL = (1n << 53n) - 1n;
const admin = member({ permissions: MODERATOR_PERMISSIONS, nick: 'Casey' });

/** The host's own Top.gg secret, set in the environment: the dashboard never shows it. */
const TOPGG_SECRET = 'whs_host-set-topgg-secret-0042';

let world: World;
let publicUrl: string;
let storeFile: string;

beforeAll(async () => {
  const dashboard = await dashboardSettings();
  publicUrl = dashboard.publicUrl;
  const { url: _url, ...receiver } = await receiverEnv();
  storeFile = receiver.DATABASE_URL!.slice('file:'.length);
  world = await startWorld({
    discord: { otherGuildIds: [B] },
    env: {
      ...receiver,
      ...dashboard.env,
      LISTING_TOPGG_SECRET: TOPGG_SECRET,
    },
  });
  await world.bot.waitForLog((line) => line.msg === 'dashboard listening');
  world.discord.addMembers([admin]);
  world.discord.addMembers([admin], B);
  signInAsOwner();
});
afterAll(async () => {
  await world?.close();
  removeStoreFiles();
});

function signInAsOwner() {
  world.discord.oauthAs(DEFAULTS.ownerId, {
    guilds: [
      { id: A, owner: true, permissions: ALL },
      { id: B, owner: true, permissions: ALL },
    ],
  });
}

async function owner(): Promise<{ browser: DashboardVisitor; csrf: string }> {
  const browser = new DashboardVisitor(publicUrl);
  const home = await browser.signIn();
  return { browser, csrf: DashboardVisitor.csrfOf(home.text) };
}

/** `/setup <sub>` as a member with Manage Server, through discord.js and the stand-in: the answer's text. */
async function setup(sub: string, options: CommandOption[] = [], guildId = A): Promise<string> {
  const handle = world.discord.sendInteraction(
    slashCommand({
      name: 'setup',
      guildId,
      member: admin,
      options: [{ name: sub, type: OptionType.Subcommand, options }],
    }),
  );
  return textOf(await handle.waitForMessage(10_000));
}

/** The server's settings row and milestones as the store holds them now (read from the bot's file). */
async function stored(guildId: string) {
  const root = await openStore({ kind: 'sqlite', file: storeFile });
  try {
    const servers = new Servers(root, undefined, undefined);
    await servers.load();
    const milestones = (await root.forServer(guildId).milestones()).map(({ createdAt: _at, ...m }) => m);
    return { settings: servers.record(guildId)?.settings ?? {}, milestones };
  } finally {
    await root.close();
  }
}

/** A's and B's rows compared: each server's own channel and role ids stand for the same choice. */
const sameShape = (row: unknown, guildId: string) =>
  JSON.parse(
    JSON.stringify(row).replaceAll(CHANNEL(guildId), 'CHANNEL').replaceAll(voterRoleIdFor(guildId), 'ROLE'),
  ) as unknown;

const page = (guildId: string, path: string) => `/servers/${guildId}/${path}`;

describe('each settings page', () => {
  it.each(['channels', 'announcements', 'rewards'])('%s answers 200 with the CSP and its forms', async (path) => {
    const { browser, csrf } = await owner();
    const visit = await browser.get(page(A, path));
    expect(visit.status).toBe(200);
    expect(visit.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(visit.text).toContain(`action="${page(A, path)}"`);
    expect(visit.text).toContain(`value="${csrf}"`);
    expect(visit.text).toContain('aria-current="page"');
    expect(visit.text).not.toMatch(/<script>|style="/);
    // The audit channel on this server is REVIEW_LOG_CHANNEL_ID's: shown, not offered for change.
    if (path === 'channels')
      expect(visit.text).toContain('Set by REVIEW_LOG_CHANNEL_ID in the host&#39;s environment: change it there.');
  });

  it('serves the live preview script and the pages stylesheet as files', async () => {
    const browser = new DashboardVisitor(publicUrl);
    const script = await browser.get('/static/announce-preview.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await browser.get('/static/pages.css')).status).toBe(200);
  });
});

describe('a change saved on the dashboard', () => {
  it('is stored, seen by /setup status at once, and audited with the member name', async () => {
    const { browser, csrf } = await owner();
    const statusBefore = await setup('status');
    const reminders = await browser.post(page(A, 'channels'), { _csrf: csrf, kind: 'reminders', channel: CHANNEL(A) });
    expect(reminders.status).toBe(303);
    expect(reminders.location).toBe(`${publicUrl}${page(A, 'channels')}?saved=1`);
    expect((await browser.get(reminders.location!)).text).toContain('Saved');
    expect((await stored(A)).settings.reminderChannelId).toBe(CHANNEL(A));
    expect(await setup('status')).not.toEqual(statusBefore);
    // The same form on the rewards page comes back to the rewards page.
    const fromRewards = await browser.post(page(A, 'rewards'), { _csrf: csrf, kind: 'reminders', channel: CHANNEL(A) });
    expect(fromRewards.location).toBe(`${publicUrl}${page(A, 'rewards')}?saved=1`);

    const template = 'Thanks {user} for vote {votes_total}!';
    const saved = await browser.post(page(A, 'announcements'), {
      _csrf: csrf,
      template,
      firstVote: '',
      everyList: 'on',
    });
    expect(saved.status).toBe(303);
    expect((await stored(A)).settings.announceTemplate).toBe(template);
    await world.discord.waitUntil(
      () =>
        world.discord
          .channelMessages(CHANNEL(A))
          .some((m) => textOf(m).includes('Changed on the dashboard by') && textOf(m).includes('Thanks')),
      10_000,
      'the audit line',
    );

    const grace = await browser.post(page(A, 'rewards'), { _csrf: csrf, graceHours: '30' });
    expect(grace.status).toBe(303);
    expect((await stored(A)).settings.streakGraceHours).toBe(30);
  });

  it('refuses bad input with a 400 page naming the fix, and stores nothing', async () => {
    const { browser, csrf } = await owner();
    const before = await stored(A);
    const placeholder = await browser.post(page(A, 'announcements'), { _csrf: csrf, template: 'Hi {nobody}' });
    expect(placeholder.status).toBe(400);
    expect(placeholder.text).toContain('{nobody}');
    expect(placeholder.text).toContain('{votes_total}');
    const elsewhere = await browser.post(page(A, 'channels'), { _csrf: csrf, kind: 'votes', channel: CHANNEL(B) });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.text).toContain('Pick a text channel of this server.');
    const votes = await browser.post(page(A, 'rewards'), { _csrf: csrf, milestoneRole: voterRoleIdFor(A), votes: 'x' });
    expect(votes.status).toBe(400);
    expect(await stored(A)).toEqual(before);
  });

  it('without its form token is refused 403, and nothing is stored', async () => {
    const { browser } = await owner();
    const before = await stored(A);
    const refused = await browser.post(page(A, 'rewards'), { graceHours: '99' });
    expect(refused.status).toBe(403);
    expect(await stored(A)).toEqual(before);
  });

  it('by a member the bot no longer sees with Manage Server is refused 403, and nothing is stored', async () => {
    const managers = world.discord.addRole('Managers', { permissions: MEMBER_PERMISSIONS | MANAGE_GUILD });
    const userId = nextSnowflake();
    world.discord.addMembers([member({ id: userId, roles: [managers], permissions: MODERATOR_PERMISSIONS })]);
    world.discord.oauthAs(userId, { guilds: [{ id: A, permissions: MODERATOR_PERMISSIONS }] });
    try {
      const browser = new DashboardVisitor(publicUrl);
      const csrf = DashboardVisitor.csrfOf((await browser.signIn()).text);
      expect((await browser.get(page(A, 'rewards'))).status).toBe(200);
      world.discord.setMemberRoles(userId, []);
      const before = await stored(A);
      expect((await browser.post(page(A, 'rewards'), { _csrf: csrf, graceHours: '7' })).status).toBe(403);
      expect(await stored(A)).toEqual(before);
    } finally {
      signInAsOwner();
    }
  });
});

describe('the live preview', () => {
  it('answers the messages /setup announce preview gives for the same template, as JSON', async () => {
    const { browser, csrf } = await owner();
    const template = 'PREVIEW {server} · {streak} in a row';
    const preview = await browser.post(page(A, 'announcements/preview'), {
      _csrf: csrf,
      template,
      firstVote: '',
      everyList: 'on',
    });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toContain('application/json');
    const drawn = JSON.parse(preview.text) as { messages: Array<{ label: string; text: string }>; notes: string[] };
    const command = await setup('announce', [
      { name: 'template', type: OptionType.String, value: template },
      { name: 'preview', type: OptionType.Boolean, value: true },
    ]);
    const lines = [...drawn.messages.flatMap(({ label, text }) => [label, text]), ...drawn.notes];
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(command.replaceAll('**', '')).toContain(line);
    expect(drawn.messages[0]!.text).toContain('3 in a row');
  });
});

describe('the dashboard and /setup', () => {
  it('leave the store identical for the same announcement template, channel and milestone on two servers', async () => {
    const { browser, csrf } = await owner();
    const template = 'Same {user} {votes_month}';
    await setup('announce', [{ name: 'template', type: OptionType.String, value: template }], A);
    await setup('channel', [
      { name: 'kind', type: OptionType.String, value: 'votes' },
      { name: 'target', type: OptionType.Channel, value: CHANNEL(A) },
    ]);
    await setup('milestone', [
      { name: 'role', type: OptionType.Role, value: voterRoleIdFor(A) },
      { name: 'votes', type: OptionType.Integer, value: 5 },
    ]);
    await setup('streak', [{ name: 'grace-hours', type: OptionType.Integer, value: 30 }]);
    await setup('channel', [
      { name: 'kind', type: OptionType.String, value: 'reminders' },
      { name: 'target', type: OptionType.Channel, value: CHANNEL(A) },
    ]);

    const post = async (path: string, form: Record<string, string>) =>
      expect((await browser.post(page(B, path), { _csrf: csrf, ...form })).status).toBe(303);
    await post('announcements', { template, firstVote: '', everyList: 'on' });
    await post('channels', { kind: 'votes', channel: CHANNEL(B) });
    await post('rewards', { milestoneRole: voterRoleIdFor(B), votes: '5', period: 'month' });
    await post('rewards', { graceHours: '30' });
    await post('channels', { kind: 'reminders', channel: CHANNEL(B) });

    const [viaCommand, viaDashboard] = [await stored(A), await stored(B)];
    expect(viaDashboard.milestones).toHaveLength(1);
    expect(sameShape(viaDashboard, B)).toEqual(sameShape(viaCommand, A));
  });
});

describe("the host's secrets", () => {
  it.each([
    ['topgg', TOPGG_SECRET, 'LISTING_TOPGG_SECRET'],
    ['guilds', WEBHOOK_TOKEN, 'WEBHOOK_TOKEN'],
  ])('refuses a Reveal of %s set by the host, answering no part of it', async (site, secret, variable) => {
    const { browser, csrf } = await owner();
    const listings = await browser.get(page(A, 'listings'));
    expect(listings.text).not.toContain(secret);
    const revealed = await browser.post(page(A, 'listings'), { _csrf: csrf, site, action: 'reveal' });
    expect(revealed.status).toBe(400);
    expect(revealed.text).toContain(variable);
    expect(revealed.text).not.toContain(secret);
    expect(revealed.text).not.toContain(secret.slice(-4));
  });
});

describe('the change budget', () => {
  it('never spends saves on previews, and shows a save refused for too many changes again with what was typed', async () => {
    // A member of their own: the budget is a member's, and the owner's serves the tests above.
    const managers = world.discord.addRole('Typists', { permissions: MEMBER_PERMISSIONS | MANAGE_GUILD });
    const typist = nextSnowflake();
    world.discord.addMembers([member({ id: typist, roles: [managers], permissions: MODERATOR_PERMISSIONS })]);
    world.discord.oauthAs(typist, { guilds: [{ id: A, permissions: MODERATOR_PERMISSIONS }] });
    try {
      const { browser, csrf } = await owner();
      const words =
        'Thanks {user} for voting again this month you are one of the best members we have and we are very grateful today';
      // The live preview asks once a pause, a word at a time: more than the 20 changes a save may spend.
      const typed = words.split(' ');
      for (let count = 1; count <= typed.length; count += 1) {
        const preview = await browser.post(page(A, 'announcements/preview'), {
          _csrf: csrf,
          template: typed.slice(0, count).join(' '),
          firstVote: '',
        });
        expect(preview.status).toBe(200);
      }
      expect(typed.length).toBeGreaterThan(20);
      const save = () => browser.post(page(A, 'announcements'), { _csrf: csrf, template: words, firstVote: '' });
      expect((await save()).status).toBe(303);
      let refused = await save();
      for (let tries = 0; refused.status !== 429 && tries < 30; tries += 1) refused = await save();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.text).toContain('Too many requests');
      expect(refused.text).toContain('you are one of the best members');
    } finally {
      signInAsOwner();
    }
  });
});
