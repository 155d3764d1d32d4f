import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, startBot, type BotProcess } from '../../tools/bot-process.js';
import { startPlayground, type PlaygroundProcess } from '../support/playground-process.js';
import { runBuilt, type ScriptRun } from '../support/run-script.js';

// `npm run playground` and `npm start` in two terminals, as a newcomer runs them: the playground's
// built entry (npm run build:tools makes it), then the bot with nothing but the file it wrote.
const CLI = 'dist/tools/playground/cli.js';
const FREE_PORTS = ['--discord-port', '0', '--sandbox-port', '0', '--control-port', '0', '--webhook-port', '0'];

let dir: string;
let envFile: string;
let playground: PlaygroundProcess;
let controlPort: string;
let bot: BotProcess;
/** A send before the bot was started. */
let tooEarly: ScriptRun;

/** A playground run that should end by itself and has not by then is killed: the test fails, not hangs. */
const RUN_MS = 15_000;
const send = (...words: string[]) => runBuilt(CLI, {}, ['send', ...words, '--control-port', controlPort], RUN_MS);

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, CLI))) throw new Error(`${CLI} is missing: run npm run build:tools first.`);
  dir = mkdtempSync(path.join(tmpdir(), 'bot-playground-'));
  envFile = path.join(dir, '.env.playground');
  playground = startPlayground(CLI, [...FREE_PORTS, '--env-out', envFile]);
  controlPort = (await playground.waitForOutput(/Control\s+http:\/\/127\.0\.0\.1:(\d+)\/send/))[1]!;
  tooEarly = await send('/vote');
  bot = startBot({}, { envFile });
  await bot.waitForLog((line) => line.msg === 'ready', 15_000, 'the ready log line');
}, 40_000);

afterAll(async () => {
  await bot?.stop('SIGTERM');
  if (playground && playground.child.exitCode === null && playground.child.signalCode === null)
    playground.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run playground, with npm start in a second terminal', () => {
  it('writes a file the bot starts from alone, and prints how to start it', () => {
    const written = readFileSync(envFile, 'utf8');
    expect(written).toMatch(/^DISCORD_API_URL=http:\/\/127\.0\.0\.1:\d+\/api$/m);
    expect(written).toMatch(/^SERVICE_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1$/m);
    expect(playground.output()).toContain(`DOTENV_CONFIG_PATH=${envFile} npm start`);
    // The bot read nothing else: its store is the playground's temporary one.
    const store = /^DATABASE_URL=file:(.+)$/m.exec(written)![1]!;
    expect(bot.logs.find((line) => line.msg === 'store lock held: this process is the active one')?.store).toBe(store);
  });

  it('says how to start the bot when a command is sent before it connected, and sends nothing', async () => {
    expect(tooEarly.code).toBe(1);
    expect(tooEarly.stderr).toContain(
      `has not connected to the playground yet. Start it in another terminal: DOTENV_CONFIG_PATH=${envFile} npm start`,
    );
    // Nothing was queued for the bot to find when it connected (no test before this one sends): a
    // command sent now is the first the bot handles, and a queued one would have come before it.
    expect((await send('/vote', 'member:alice')).code).toBe(0);
    await bot.waitForLog((line) => line.msg === 'interaction handled', 5_000, 'the command sent now');
    expect(bot.logs.filter((line) => line.msg === 'interaction handled')).toHaveLength(1);
  });

  it("answers a member's /vote sent through send with that member's vote", async () => {
    const alices = await send('/vote', 'member:alice');
    expect(alices.code).toBe(0);
    expect(alices.stdout).toContain('Alice › /vote member:alice');
    expect(alices.stdout).toContain('Vote active');
    expect(alices.stdout).toContain('@Alice, you have voted.');
    // Carol, not Bob: Bob votes in a later test, and a "no vote" answer is cached for a few seconds.
    const carols = await send('/vote', 'member:carol', 'as:maya');
    expect(carols.code).toBe(0);
    expect(carols.stdout).toContain('Maya › /vote member:carol');
    expect(carols.stdout).toContain('No active vote');
  });

  it("seeds Dan's double vote through the receiver once the bot connects, so /leaderboard has a row", async () => {
    await playground.waitForOutput(/Dan's double vote came in/);
    const board = await send('/leaderboard');
    expect(board.code).toBe(0);
    expect(board.stdout).toContain('@Dan (Dan) · 2 votes');
  });

  it('delivers a vote as Guilds does: announced with the name beside the mention, then /vote shows it', async () => {
    const delivery = await send('webhook', 'vote', 'member:bob');
    expect(delivery.code).toBe(0);
    expect(delivery.stdout).toContain('New vote');
    expect(delivery.stdout).toContain('@Bob (Bob) voted');
    const check = await send('/vote', 'member:bob');
    expect(check.stdout).toContain('Vote active');
    // Another bot asks the vote API (API_ENABLED, the playground's API_KEYS) whether Bob is voting.
    const asked = await send('api', 'vote', 'member:bob');
    expect(asked.code).toBe(0);
    expect(asked.stdout).toMatch(/API › GET \/api\/v1\/guilds\/\d+\/members\/\d+\/vote → 200 \(rate limit: limit 60/);
    expect(asked.stdout).toContain('"voting": true');
    expect(asked.stdout).toContain('"site": "guilds"');
  });

  it('delivers a vote as Top.gg does (signed), to the listing the playground made, and announces it', async () => {
    const delivery = await send('webhook', 'vote', 'site:topgg', 'member:carol');
    expect(delivery.code).toBe(0);
    expect(delivery.stdout).toContain('Top.gg › webhook vote site:topgg member:carol');
    expect(delivery.stdout).toContain('@Carol (Carol) voted');
    const wrong = await send('webhook', 'vote', 'site:nolist', 'member:carol');
    expect(wrong.code).toBe(2);
    expect(wrong.stdout + wrong.stderr).toContain('site: takes one of guilds, topgg, discordplace');
  });

  it("presses a button on the bot's last answer: /votes, then Next shows the next page", async () => {
    const first = await send('/votes');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Page 1 of [2-9]/);
    expect(first.stdout).toContain('To press “Next”: send press "Next"');
    const next = await send('press', 'next');
    expect(next.code).toBe(0);
    expect(next.stdout).toContain('Alice presses “Next”');
    expect(next.stdout).toMatch(/Page 2 of [2-9]/);
    const none = await send('press', 'Reply');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('has no button “Reply”; it has “Previous”, “Next”');
  });

  it('delivers a review as Guilds does and shows the feed post, and /remind answers', async () => {
    const review = await send('webhook', 'review', 'member:maya', 'rating:3', 'content:Fair queue, slow replies');
    expect(review.code).toBe(0);
    expect(review.stdout).toContain('New review');
    expect(review.stdout).toContain('★★★☆☆ 3/5 · by @Maya (Maya)');
    expect(review.stdout).toContain('Fair queue, slow replies');
    const remind = await send('/remind', 'on', 'as:dan');
    expect(remind.code).toBe(0);
    expect(remind.stdout).toContain('Reminders on');
  });

  it('refuses what it cannot send with the reason and exit 2', async () => {
    const stranger = await send('/vote', 'member:zed');
    expect(stranger.code).toBe(2);
    expect(stranger.stderr).toContain('member: no member "zed"');
    expect(stranger.stdout).toBe('');
    const noSub = await send('/remind');
    expect(noSub.code).toBe(2);
    expect(noSub.stderr).toContain('/remind needs one of on, off, status');
  });

  it('answers --help with its usage and exit 0, and an unknown flag with exit 2, writing nothing', async () => {
    const file = path.join(dir, 'help.env');
    const help = await runBuilt(CLI, {}, ['--help', ...FREE_PORTS, '--env-out', file], RUN_MS);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run playground/);
    expect(help.stdout).toContain('send /vote member:bob');
    const wrong = await runBuilt(CLI, {}, ['--env-out', file, '--colour'], RUN_MS);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("Unknown option '--colour'");
    const sendWrong = await runBuilt(CLI, {}, ['send', '/vote', '--env-out', file], RUN_MS);
    expect(sendWrong.code).toBe(2);
    expect(sendWrong.stderr).toContain('send takes only --server, --http, --interactions-port and --control-port');
    expect(existsSync(file)).toBe(false);
  });

  it('never writes .env, and refuses before it starts anything', async () => {
    // Generous: a process start on a busy machine (5 s was once too short with a core kept busy).
    const refused = await runBuilt(CLI, {}, [...FREE_PORTS, '--env-out', path.join(dir, '.env')], 30_000);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the playground never writes .env');
    expect(existsSync(path.join(dir, '.env'))).toBe(false);
  });

  it('stops on Ctrl+C, removing the file and the store; send then says no playground answers', async () => {
    const store = path.dirname(/^DATABASE_URL=file:(.+)$/m.exec(readFileSync(envFile, 'utf8'))![1]!);
    const exited = new Promise<number | null>((resolve) => playground.child.once('exit', (code) => resolve(code)));
    playground.child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(envFile)).toBe(false);
    expect(existsSync(store)).toBe(false);
    const late = await send('/vote');
    expect(late.code).toBe(1);
    expect(late.stderr).toContain('No playground answers');
  });
});
