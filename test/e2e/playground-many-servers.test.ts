import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, startBot, type BotProcess } from '../../tools/bot-process.js';
import { closedPort } from '../../tools/closed-port.js';
import { DashboardVisitor } from '../../tools/dashboard-visitor.js';
import { splitWords } from '../../tools/playground/send-line.js';
import { startPlayground, type PlaygroundProcess } from '../support/playground-process.js';
import { runBuilt, type ScriptRun } from '../support/run-script.js';

// The many-server walk of docs/playground.md, read from the page itself: the same commands, in its
// order, against the built playground and the bot started from nothing but the file it wrote.
const CLI = 'dist/tools/playground/cli.js';
const FREE_PORTS = ['--discord-port', '0', '--sandbox-port', '0', '--control-port', '0', '--webhook-port', '0'];
/** The dashboard too (`--dashboard`, on a free port): the page's "The dashboard" section. */
const DASHBOARD = ['--dashboard-port', '0'];
const RUN_MS = 15_000;

/** The sh block under "## Many servers": its lines, as a newcomer copies them. */
function documentedWalk(): string[] {
  const page = readFileSync(path.join(ROOT, 'docs/playground.md'), 'utf8');
  const section = page.slice(page.indexOf('## Many servers'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

/** The lines of the first sh block under `heading`, comments dropped. */
function documentedBlock(heading: string): string[] {
  const page = readFileSync(path.join(ROOT, 'docs/playground.md'), 'utf8');
  const section = page.slice(page.indexOf(heading));
  return /```sh\n([\s\S]*?)```/
    .exec(section)![1]!
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

const walk = documentedWalk();
const overHttp = documentedBlock('## Commands over HTTP');
const start = walk[0]!;
const sends = walk.filter((line) => line.startsWith('npm run playground -- send '));

let dir: string;
let envFile: string;
let playground: PlaygroundProcess;
let controlPort: string;
let bot: BotProcess;
let endpoint: BotProcess;
let endpointPort: number;
let dashboardUrl: string;
const answers: ScriptRun[] = [];

const send = (...words: string[]) => runBuilt(CLI, {}, ['send', ...words, '--control-port', controlPort], RUN_MS);

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, CLI))) throw new Error(`${CLI} is missing: run npm run build:tools first.`);
  dir = mkdtempSync(path.join(tmpdir(), 'bot-playground-many-'));
  envFile = path.join(dir, '.env.playground');
  const startFlags = start.replace(/^npm run playground -- /, '').split(/\s+/);
  playground = startPlayground(CLI, [...startFlags, ...FREE_PORTS, ...DASHBOARD, '--env-out', envFile]);
  controlPort = (await playground.waitForOutput(/Control\s+http:\/\/127\.0\.0\.1:(\d+)\/send/))[1]!;
  dashboardUrl = (await playground.waitForOutput(/Dashboard\s+(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
  bot = startBot({}, { envFile });
  await bot.waitForLog((line) => line.msg === 'ready', 15_000, 'the ready log line');
  await playground.waitForOutput(/The bot connected/);
  // The walk, one line after the other, as the page gives it.
  for (const line of sends) answers.push(await send(...splitWords(line.replace(/^npm run playground -- send /, ''))));
}, 90_000);

afterAll(async () => {
  await endpoint?.stop('SIGTERM');
  await bot?.stop('SIGTERM');
  if (playground && playground.child.exitCode === null && playground.child.signalCode === null)
    playground.child.kill('SIGINT');
  rmSync(dir, { recursive: true, force: true });
});

describe("the playground's many-server walk, as docs/playground.md tells it", () => {
  it('starts three servers and writes a many-server file: no server in it, a SECRETS_KEY made for the session', () => {
    expect(start).toBe('npm run playground -- --servers 3');
    const written = readFileSync(envFile, 'utf8');
    expect(written).toMatch(/^SECRETS_KEY=[A-Za-z0-9+/]{43}=$/m);
    expect(written).toMatch(/^WEBHOOK_PUBLIC_URL=http:\/\/127\.0\.0\.1:\d+$/m);
    expect(written).not.toMatch(/^(DISCORD_GUILD_ID|SERVICE_API_KEY|WEBHOOK_TOKEN)=/m);
    expect(playground.output()).toMatch(/^ {2}3 {2}\d{17,20} {2}"Other Guild 2"/m);
    expect(bot.logs.filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
  });

  it('walks server 2 from credentials, its Top.gg listing included, to a ✔ status, each step answered (exit 0)', () => {
    expect(sends.map((line) => line.split(' ').slice(5, 7).join(' '))).toEqual([
      '/setup credentials',
      '/setup channel',
      '/setup webhook',
      'webhook vote',
      '/setup listing',
      'press "Paste',
      'webhook vote',
      '/setup status',
    ]);
    for (const [i, answer] of answers.entries())
      expect({ line: sends[i], code: answer.code, stderr: answer.stderr }).toEqual({
        line: sends[i],
        code: 0,
        stderr: '',
      });
    const [credentials, channel, webhook, vote, listing, pasted, topggVote, status] = answers.map((a) => a.stdout);
    // The form, filled and submitted: the key checked with the service and kept, shown by its end only.
    expect(credentials).toContain('Maya › /setup credentials');
    expect(credentials).toContain('Maya fills in api_key:, app_id: and submits');
    expect(credentials).toMatch(/saved/i);
    expect(credentials).toContain('2002');
    expect(credentials).toContain('/setup credentials api_key:… app_id:…');
    expect(credentials).not.toContain('api-key-2002');
    expect(channel).toMatch(/Channel set/);
    expect(channel).toContain('#general');
    expect(webhook).toMatch(/http:\/\/127\.0\.0\.1:\d+\/webhook\/\d{17,20}/);
    expect(vote).toContain('Guilds › webhook vote member:bob (server 2)');
    expect(vote).toContain('@Bob (Bob) voted');
    // The listing's address is this server's, and its secret is Top.gg's to make: the button takes it.
    expect(listing).toMatch(/http:\/\/127\.0\.0\.1:\d+\/webhook\/\d{17,20}\/topgg/);
    expect(listing).toContain('To press “Paste the secret”: send press "Paste the secret" --server 2');
    expect(pasted).toContain('Maya presses “Paste the secret” (server 2)');
    expect(pasted).toContain('Maya fills in secret: and submits');
    expect(pasted).toContain('2222');
    expect(pasted).not.toContain('whs_playground_2222');
    expect(topggVote).toContain('Top.gg › webhook vote site:topgg member:carol (server 2)');
    expect(topggVote).toContain('@Carol (Carol) voted');
    expect(status).toContain('Top.gg');
    expect(status).toContain('✔');
    expect(status).not.toContain('✘');
  });

  it('keeps the servers apart: server 3, not set up, answers with /setup credentials and takes no delivery', async () => {
    const vote = await send('/vote', '--server', '3');
    expect(vote.code).toBe(0);
    expect(vote.stdout).toMatch(/not set up/i);
    expect(vote.stdout).toContain('/setup credentials');
    const delivery = await send('webhook', 'vote', 'member:carol', '--server', '3');
    expect(delivery.code).toBe(1);
    expect(delivery.stderr).toContain('send /setup webhook --server 3 first');
  });

  it('refuses a server, channel, role or form field that is not there, sending nothing (exit 2)', async () => {
    const noServer = await send('/setup', 'status', '--server', '9');
    expect(noServer.code).toBe(2);
    expect(noServer.stderr).toContain('server: no server "9". Servers: 1 (');
    const noChannel = await send('/setup', 'channel', 'kind:votes', 'target:#votes', '--server', '3');
    expect(noChannel.code).toBe(2);
    expect(noChannel.stderr).toContain('target: server 3 has no channel "#votes"; it has #general.');
    const noRole = await send('/setup', 'role', 'voter:@Voters', '--server', '3');
    expect(noRole.code).toBe(2);
    expect(noRole.stderr).toContain('voter: server 3 has no role "@Voters"; it has @everyone, @Voter, @Moderator');
    const wrongField = await send('/setup', 'credentials', 'key:x', '--server', '3');
    expect(wrongField.code).toBe(2);
    expect(wrongField.stderr).toContain('has the fields api_key:, app_id:');
    // Nothing reached server 3: still not set up.
    expect((await send('/vote', '--server', '3')).stdout).toMatch(/not set up/i);
  });

  it('answers over the Interactions Endpoint as docs/playground.md starts it: send --http, the same answers', async () => {
    // The page's port, swapped for a free one: other tests run beside this one.
    const [start, ...lines] = overHttp;
    expect(start).toBe('DOTENV_CONFIG_PATH=.env.playground INTERACTIONS_PORT=8792 npm run interactions');
    const before = await send(
      ...splitWords(lines[1]!.replace(/^npm run playground -- send /, '')),
      '--interactions-port',
      '1',
    );
    expect(before.code).toBe(1);
    expect(before.stderr).toContain('INTERACTIONS_PORT=1 npm run interactions');
    endpointPort = await closedPort();
    endpoint = startBot({ INTERACTIONS_PORT: String(endpointPort) }, { envFile, script: 'interactions' });
    await endpoint.waitForLog((line) => line.msg === 'interactions endpoint listening', 15_000, 'the endpoint');
    const words = (line: string) => splitWords(line.replace(/^npm run playground -- send /, ''));
    const votes = await send(...words(lines[1]!), '--interactions-port', String(endpointPort));
    expect(votes).toMatchObject({ code: 0, stderr: '' });
    expect(votes.stdout).toContain('Alice › /votes (server 2) (over HTTP)');
    expect(votes.stdout).toMatch(/Votes/);
    // /setup reads the server over REST first, as no gateway fills the cache here: the same ✔ as over the gateway.
    const status = await send(
      '--http',
      '/setup',
      'status',
      '--server',
      '2',
      '--interactions-port',
      String(endpointPort),
    );
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(status.stdout).toContain('Maya › /setup status (server 2) (over HTTP)');
    expect(status.stdout).toContain('✔');
    expect(status.stdout).not.toMatch(/✘|not readable|Wrong server/);
    const vote = await send(
      '--http',
      '/vote',
      'member:bob',
      '--server',
      '2',
      '--interactions-port',
      String(endpointPort),
    );
    expect(vote.code).toBe(0);
    expect(vote.stdout).toContain('(over HTTP)');
    expect(vote.stdout).toContain('Vote active');
    expect(endpoint.logs.filter((line) => line.msg === 'interaction handled').length).toBeGreaterThanOrEqual(2);
  });

  it('signs in to the dashboard it serves (--dashboard) as Maya, who sees every server and its Top.gg listing', async () => {
    const written = readFileSync(envFile, 'utf8');
    expect(written).toContain(`DASHBOARD_PUBLIC_URL=${dashboardUrl}`);
    expect(written).toMatch(/^SESSION_KEY=.{44}$/m);
    expect(written).toMatch(/^DISCORD_OAUTH_AUTHORIZE_URL=http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize$/m);
    const visitor = new DashboardVisitor(dashboardUrl);
    const home = await visitor.signIn();
    expect(home.status).toBe(200);
    expect(home.text).toContain('maya');
    const names = [...playground.output().matchAll(/^ {2}\d {2}\d{17,20} {2}"([^"]+)"/gm)].map((m) => m[1]!);
    expect(names).toHaveLength(3);
    for (const name of names) expect(home.text).toContain(name);
    const two = /^ {2}2 {2}(\d{17,20})/m.exec(playground.output())![1]!;
    const listings = await visitor.get(`/servers/${two}/listings`);
    expect(listings.status).toBe(200);
    expect(listings.text).toContain(`/webhook/${two}/topgg`);
    expect(listings.text).toContain('••••2222');
  });

  it("names a role by @name: /setup role voter:@Voter sets the server's Voter role", async () => {
    const role = await send('/setup', 'role', 'voter:@Voter', '--server', '2');
    expect(role.code).toBe(0);
    expect(role.stdout).toContain('@Voter');
    expect(role.stdout).not.toMatch(/✘|refused/i);
  });
});
