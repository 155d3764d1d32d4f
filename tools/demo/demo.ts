/* `npm run demo`: the service sandbox, the Discord stand-in and the built bot, wired as in
 * production, play a short scripted session; each step and the bot's answer are printed as a
 * member would see them. No Discord account, token or network needed. */
import { plainStyle, renderMessage, renderModal, ttyStyle, wrap, type RenderContext } from './render.js';
import { readArgs } from '../../src/core/cli-args.js';
import { startWorld } from '../world.js';
import {
  buttonClick,
  DEFAULTS,
  modalSubmit,
  OptionType,
  slashCommand,
  textChannelIdFor,
  type CommandOption,
  type InteractionHandle,
  type Message,
  type ModalResponse,
} from '../discord-standin/index.js';
import type { World } from '../world.js';
import { CRITIC_REVIEW } from '../seed.js';
import { deliver, reviewEvent, voteEvent } from '../guilds-webhook.js';
import { alice, bob, CAST, carol, dan, maya, type Person } from '../playground/cast.js';
import { closedPort } from '../closed-port.js';

const WIDTH = 100;
/** Longest wait for any one answer. */
const STEP_MS = 10_000;
/** How long the bot gets to exit after SIGTERM before it is killed. */
const STOP_MS = 5_000;
const REPLY_TEXT = "Thanks for the feedback — we've fixed the queue!";
/** A vote on Guilds runs this long. */
const VOTE_MS = 12 * 60 * 60_000;
const webhook = { url: '', token: 'demo-webhook-token' };

const useColour = process.stdout.isTTY === true && !process.env.NO_COLOR;
const style = useColour ? ttyStyle : plainStyle;

class StepFailed extends Error {}

let world: World | undefined;
let ctx: RenderContext;
let step = '';

function print(text = ''): void {
  process.stdout.write(`${text}\n`);
}

function header(title: string): void {
  step = title;
  const line = `── ${title} `;
  print();
  print(style.bold(line + '─'.repeat(Math.max(3, WIDTH - [...line].length))));
}

/** What a person does, as a line of the transcript. */
function act(who: Person, what: string): void {
  wrap(`${who.name} › ${what}`, WIDTH).forEach((line, i) =>
    print(i === 0 ? line.replace(`${who.name} ›`, `${style.bold(who.name)} ${style.dim('›')}`) : `  ${line}`),
  );
}

/** A note under an answer: what it shows, or what the sandbox saw. */
function remark(text: string): void {
  wrap(text, WIDTH - 4).forEach((line, i) => print(style.dim(`${i === 0 ? '  ↳ ' : '    '}${line}`)));
}

function renderContext(w: World): RenderContext {
  return {
    now: new Date(),
    users: new Map([...CAST.map((p): [string, string] => [p.id, p.name]), [w.discord.botUserId, 'Vote Review Bot']]),
    roles: new Map([[w.discord.moderatorRoleId, 'Moderator']]),
    channels: new Map([[w.discord.channelId, 'general']]),
    width: WIDTH,
    style,
  };
}

/** Waits for the bot's answer; failing that, stops the demo with what the stand-in saw. */
async function answer<T>(what: string, wait: (timeoutMs: number) => Promise<T>): Promise<T> {
  try {
    return await wait(STEP_MS);
  } catch (error) {
    throw new StepFailed(`step “${step}” got no ${what} within ${STEP_MS / 1000} s.\n${(error as Error).message}`);
  }
}

/** How fast the first callback came, and in what form. */
function timing(handle: InteractionHandle): string {
  const first = handle.callbacks[0];
  if (!first || Number.isNaN(handle.sentAt)) return '';
  const ms = Math.max(0, Math.round(first.at - handle.sentAt));
  const how: Record<number, string> = {
    4: `answered in ${ms} ms`,
    5: `deferred after ${ms} ms, then answered`,
    6: `acknowledged in ${ms} ms`,
    7: `updated the message in ${ms} ms`,
    9: `opened a form in ${ms} ms`,
  };
  return how[first.type] ?? `callback type ${first.type} after ${ms} ms`;
}

function showMessage(message: Message, note?: string, author = 'Vote Review Bot'): void {
  ctx.now = new Date();
  print(renderMessage(message, ctx, { author, ...(note ? { note } : {}) }));
}

function findButton(message: Message, label: string): { custom_id: string; disabled?: boolean } {
  for (const row of message.components ?? []) {
    for (const child of row?.components ?? []) {
      if (child?.type === 2 && child.label === label && typeof child.custom_id === 'string') return child;
    }
  }
  throw new StepFailed(`step “${step}”: the bot's message has no "${label}" button.`);
}

function userOption(name: string, target: Person): CommandOption {
  return { name, type: OptionType.User, value: target.id };
}

function command(who: Person, name: string, options: CommandOption[] = [], shown = `/${name}`): InteractionHandle {
  act(who, shown);
  const targets = CAST.filter((p) => options.some((o) => o.value === p.id));
  return world!.discord.sendInteraction(
    slashCommand({ name, member: who.member, options, resolvedUsers: targets.map((p) => p.member) }),
  );
}

function press(who: Person, message: Message, label: string): InteractionHandle {
  const button = findButton(message, label);
  act(who, `presses ${style.bold(`[ ${label} ]`)}`);
  return world!.discord.sendInteraction(buttonClick({ customId: button.custom_id, message, member: who.member }));
}

/** The custom ids of the form's text input and select, read from the modal the bot sent. */
function modalInputs(modal: ModalResponse): { text?: string; select?: string } {
  const inputs = (modal.components ?? []).flatMap((c: any) =>
    c?.type === 18 && c.component ? [c.component] : c?.type === 1 ? (c.components ?? []) : [],
  );
  return {
    text: inputs.find((i: any) => i?.type === 4)?.custom_id,
    select: inputs.find((i: any) => i?.type === 3)?.custom_id,
  };
}

/** What the sandbox holds for Carol's review: its reply count, and the replies this demo posted. */
function carolsReviewInSandbox(): {
  count: string;
  posted: Array<{ content: string; pinned: boolean }>;
  posts: number;
} {
  const review = world!.sandbox.getReviewById(CRITIC_REVIEW);
  return {
    count: review ? String(review.replies) : 'an unknown number of',
    posted: world!.sandbox.repliesTo(CRITIC_REVIEW),
    posts: world!.sandbox.requestCount('postReply'),
  };
}

async function play(w: World): Promise<void> {
  const { discord } = w;

  header('1. Alice checks her vote: /vote');
  const vote = command(alice, 'vote');
  showMessage(await answer('answer to /vote', (ms) => vote.waitForMessage(ms)), timing(vote));

  header('2. Alice checks whether Bob has voted: /vote member:@Bob');
  const bobsVote = command(alice, 'vote', [userOption('member', bob)], '/vote member:@Bob');
  showMessage(await answer('answer to /vote member:@Bob', (ms) => bobsVote.waitForMessage(ms)), timing(bobsVote));

  header('3. Alice lists the votes: /votes, then pages on');
  const votes = command(alice, 'votes');
  const list = await answer('answer to /votes', (ms) => votes.waitForMessage(ms));
  showMessage(list, timing(votes));
  print();
  const next = press(alice, list, 'Next');
  showMessage(await answer('page 2 after Next', (ms) => next.waitForMessage(ms)), timing(next));

  header("4. Maya, a moderator, shares Carol's review: /review member:@Carol public:True");
  const review = command(
    maya,
    'review',
    [userOption('member', carol), { name: 'public', type: OptionType.Boolean, value: true }],
    '/review member:@Carol public:True',
  );
  const reviewMessage = await answer('answer to /review', (ms) => review.waitForMessage(ms));
  showMessage(reviewMessage, timing(review));
  const allowed = review.callbacks[0]?.data?.allowed_mentions;
  remark(
    "Carol's **bold** and @everyone show as typed" +
      (Array.isArray(allowed?.parse) && allowed.parse.length === 0 && !allowed.users?.length && !allowed.roles?.length
        ? '; allowed_mentions is empty, so nobody is pinged.'
        : `, but the bot sent allowed_mentions ${JSON.stringify(allowed ?? null)}.`),
  );

  header("5. Maya replies to Carol's review");
  const reply = press(maya, reviewMessage, 'Reply');
  const modal = await answer('reply form', (ms) => reply.waitForModal(ms));
  print(`${style.bold('Vote Review Bot')} ${style.dim(`· ${timing(reply)}`)}`);
  print(renderModal(modal, ctx));
  print();
  const { text, select } = modalInputs(modal);
  if (!text) throw new StepFailed(`step “${step}”: the reply form has no text input.`);
  act(maya, `types “${REPLY_TEXT}”`);
  act(maya, `picks Yes for “Pin this reply?” and presses ${style.bold('[ Submit ]')}`);
  const auditsBefore = discord.channelMessages(discord.channelId).length;
  const submit = discord.sendInteraction(
    modalSubmit({
      customId: modal.custom_id,
      fields: { [text]: REPLY_TEXT },
      ...(select ? { selects: { [select]: ['yes'] } } : {}),
      member: maya.member,
      message: reviewMessage,
    }),
  );
  const updated = await answer('update of the review', (ms) => submit.waitForMessage(ms));
  print(style.dim('The review message, updated in place for everyone in #general:'));
  showMessage(updated, timing(submit));
  await answer('confirmation for Maya', (ms) => submit.waitFor((h) => h.followUps().length > 0, ms));
  print();
  print(style.dim('Then, for Maya alone:'));
  showMessage(submit.followUps()[0]!);
  await answer('audit message in the log channel', (ms) =>
    discord.waitUntil(() => discord.channelMessages(discord.channelId).length > auditsBefore, ms, 'the audit message'),
  );
  print();
  print(style.dim('And in the log channel (#general), the record of who replied:'));
  showMessage(discord.channelMessages(discord.channelId).at(-1)!);
  const afterMaya = carolsReviewInSandbox();
  const last = afterMaya.posted.at(-1);
  remark(
    `The sandbox now counts ${afterMaya.count} replies on ${CRITIC_REVIEW}; it received ${afterMaya.posts} reply ` +
      `POST${afterMaya.posts === 1 ? '' : 's'}` +
      (last ? `, stored as “${last.content}”, pinned: ${last.pinned ? 'yes' : 'no'}.` : ', but stored no reply.'),
  );

  header('6. Dan, not a moderator, presses the same Reply button');
  const current = submit.message() ?? updated;
  const sneaky = press(dan, current, 'Reply');
  showMessage(await answer('answer to Dan', (ms) => sneaky.waitForMessage(ms)), timing(sneaky));
  const afterDan = carolsReviewInSandbox();
  remark(
    `No form was opened for Dan. The sandbox still counts ${afterDan.count} replies on ${CRITIC_REVIEW} and has ` +
      `received ${afterDan.posts} reply POST${afterDan.posts === 1 ? '' : 's'} in all (Maya's): nothing was posted by Dan.`,
  );

  header("7. Bob votes on the server's listing page; Guilds tells the bot");
  w.sandbox.setVote(bob.id, VOTE_MS);
  const vote7 = await deliverAndShow(
    w,
    'vote announcement',
    voteEvent(discord.guildId, bob.id, false, true, { username: 'bob', global_name: 'Bob' }),
  );
  remark(
    `Guilds' delivery answered ${vote7}. The name beside the mention is the bot's: a member's client that has not ` +
      'loaded Bob would show only his id there.',
  );

  header('8. Dan reviews the server on the listing page; the review feed posts it');
  const review8 = { id: 'rev_demo0001', authorId: dan.id, content: 'Quick answers and a fair queue.', rating: 4 };
  w.sandbox.setReview({ ...review8, likes: 0, replies: 0, created_at: new Date().toISOString() });
  await deliverAndShow(w, 'review feed post', reviewEvent(discord.guildId, review8));
  remark('A moderator can reply from the feed post itself, as Maya did in step 5.');

  header('9. Alice opens the leaderboard: /leaderboard');
  const board = command(alice, 'leaderboard');
  showMessage(await answer('answer to /leaderboard', (ms) => board.waitForMessage(ms)), timing(board));
  remark('Votes the bot received this month, so Bob is on it; nobody is pinged by the mentions.');

  header('10. Bob turns on vote reminders: /remind on');
  const remind = command(bob, 'remind', [{ name: 'on', type: OptionType.Subcommand, options: [] }], '/remind on');
  showMessage(await answer('answer to /remind on', (ms) => remind.waitForMessage(ms)), timing(remind));
}

/** Delivers as Guilds does and shows what the bot then posts in #general; answers the delivery's status. */
async function deliverAndShow(w: World, what: string, event: unknown): Promise<number> {
  const { discord } = w;
  const before = discord.channelMessages(discord.channelId).length;
  const body = event as { event: string };
  print(`${style.bold('Guilds')} ${style.dim('›')} POST /webhook (${body.event} event)`);
  const status = await deliver(webhook.url, webhook.token, event).catch(() => 0);
  if (status !== 200) throw new StepFailed(`step “${step}”: the bot's receiver answered ${status || 'nothing'}.`);
  await answer(what, (ms) =>
    discord.waitUntil(() => discord.channelMessages(discord.channelId).length > before, ms, `the ${what}`),
  );
  print(style.dim('In #general, for everyone:'));
  showMessage(discord.channelMessages(discord.channelId)[before]!);
  return status;
}

/** SIGTERM, as a service manager stops the bot; undefined when it has not exited in STOP_MS. */
async function stopBot(w: World): Promise<{ code: number | null; signal: string | null; ms: number } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, STOP_MS, undefined);
  });
  try {
    return await Promise.race([w.bot.stop('SIGTERM'), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function main(): Promise<number> {
  const started = performance.now();
  print(style.bold('vote-review-bot demo'));
  print('A scripted session against the service sandbox and a local Discord stand-in, with the built bot');
  print('wired to both as in production. Times are shown in UTC; the members are made up.');
  print();
  print(style.dim('Starting the sandbox, the stand-in and the bot…'));
  try {
    const port = await closedPort();
    webhook.url = `http://127.0.0.1:${port}/webhook`;
    // One channel, #general, for the feed, the announcements and the reminders, as the playground has it.
    const channel = textChannelIdFor(DEFAULTS.guildId);
    world = await startWorld({
      env: {
        VOTE_URL: 'https://example.com/vote',
        WEBHOOK_PORT: String(port),
        WEBHOOK_HOST: '127.0.0.1',
        WEBHOOK_TOKEN: webhook.token,
        REVIEW_CHANNEL_ID: channel,
        VOTE_CHANNEL_ID: channel,
        REMINDER_CHANNEL_ID: channel,
      },
    });
    // The members' names, for the bot's gateway lookups.
    world.discord.addMembers(CAST.map((p) => p.member));
  } catch (error) {
    process.stderr.write(`\nThe demo could not start the bot: ${(error as Error).message}\n`);
    return 1;
  }
  const ready = world.bot.logs.find((line) => line.msg === 'ready');
  const commands = Array.isArray(ready?.commands)
    ? ` with ${(ready.commands as string[]).map((c) => `/${c}`).join(', ')}`
    : '';
  print(style.dim(`Bot ready${commands} after ${((performance.now() - started) / 1000).toFixed(1)} s.`));
  ctx = renderContext(world);

  let failed: Error | undefined;
  try {
    await play(world);
  } catch (error) {
    failed = error as Error;
  }

  print();
  const end = failed ? '── Stopped early ' : '── The end ';
  print(style.bold(end + '─'.repeat(WIDTH - end.length)));
  const { sandbox } = world;
  const byRoute = (['getVote', 'listVotes', 'getReview', 'postReply'] as const)
    .map((route) => `${route} ${sandbox.requestCount(route)}`)
    .join(', ');
  print(`The sandbox served ${sandbox.requestCount()} requests (${byRoute}).`);
  const problems = world.bot.logs.filter((line) => typeof line.level === 'number' && line.level >= 40);
  if (problems.length > 0) {
    print(`The bot logged ${problems.length} warning(s) or error(s):`);
    for (const line of problems) print(`  ${line.level! >= 50 ? 'error' : 'warn'}: ${String(line.msg)}`);
  }
  const exit = await stopBot(world);
  const how =
    exit === undefined
      ? `no exit within ${STOP_MS / 1000} s, killed`
      : exit.code !== null
        ? `exit code ${exit.code}`
        : `signal ${exit.signal}`;
  print(`Bot stopped with SIGTERM: ${how}${exit ? ` after ${Math.round(exit.ms)} ms` : ''}.`);
  await world.close();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);

  if (failed) {
    process.stderr.write(`\nThe demo stopped: ${failed.message}\n`);
    const stderr = world.bot.stderr().trim();
    if (stderr) process.stderr.write(`Bot stderr:\n${stderr}\n`);
    return 1;
  }
  if (exit?.code !== 0) {
    process.stderr.write(`\nThe bot did not shut down cleanly (${how}).\n`);
    return 1;
  }
  print(`Demo finished in ${seconds} s.`);
  return 0;
}

const USAGE = `Usage: npm run demo

Plays a scripted session: the service sandbox, a local Discord stand-in and the built bot wired to
both, as in production. Members check votes, share and answer a review, receive a vote and a review
from Guilds' webhook, open the leaderboard and turn on reminders; each answer is printed as they would
see it. Exit code 0 when every step got its answer, 1 otherwise. NO_COLOR=1 turns colours off.
To try the bot by hand instead: npm run playground (docs/playground.md).

Options:
  -h, --help  show this text (starts nothing)
`;

if (readArgs(USAGE, {}))
  main().then(
    (code) => process.exit(code),
    async (error: unknown) => {
      process.stderr.write(`\nThe demo failed: ${(error as Error).stack ?? String(error)}\n`);
      await world?.close().catch(() => undefined);
      process.exit(1);
    },
  );
