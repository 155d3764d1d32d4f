import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROOT } from '../../tools/bot-process.js';
import { closedPort } from '../../tools/closed-port.js';
import { asMember, moderator, textOf } from '../../tools/conversation.js';
import {
  buttonClick,
  member,
  modalSubmit,
  slashCommand,
  type InteractionPayload,
} from '../../tools/discord-standin/index.js';
import { CRITIC, CRITIC_REVIEW, VOTER, VOTER_REVIEW } from '../../tools/seed.js';
import { startWorld, type World } from '../../tools/world.js';

/*
 * A service and a gateway that fight back (issue 9): what the service says never reaches Discord
 * raw, malformed payloads get a clear answer or one warn line, logs hold no bearer tokens, metric
 * labels stay bounded, and a broken process exits.
 */

const REJECTION_NOISE = (msg: unknown) => msg === 'unhandled rejection' || msg === 'uncaught exception; exiting';

describe('against one bot', () => {
  let world: World;
  let metricsUrl: string;
  beforeAll(async () => {
    const port = await closedPort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    world = await startWorld({ env: { METRICS_PORT: String(port), SERVICE_CACHE_TTL_SECONDS: '0' } });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('logs the start-up service check as ok', async () => {
    await world.bot.waitForLog((l) => l.msg === 'service check: ok');
  });

  it("shows a refused reply in the service's words without the API key, the app id or a clickable link", async () => {
    const mod = asMember(world.discord, moderator());
    const message = await mod.command('review', { member: CRITIC }).waitForMessage();
    const error = `Bad request for key ${world.sandbox.apiKey} / ${world.sandbox.appId}: see [your dashboard](https://evil.example/login)`;
    world.sandbox.setFault('postReply', { status: 400, body: JSON.stringify({ error }), times: 1 });
    const submit = mod.submitReply(message, CRITIC_REVIEW, 'Thank you for the review.');
    const text = textOf(await submit.waitForMessage());
    expect(text).toContain('The service refused the reply');
    expect(text).not.toContain(world.sandbox.apiKey);
    expect(text).not.toContain(world.sandbox.appId);
    expect(text).not.toMatch(/\]\(|https?:\/\//);
    expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toEqual([]);
  });

  it('draws review text with direction overrides and invisible characters removed', async () => {
    const review = world.sandbox.getReviewById(VOTER_REVIEW)!;
    world.sandbox.setReview({ ...review, content: 'Great \u202Eecnetnes desrever\u202C server\u2066!\u2069\u200B' });
    const text = textOf(await asMember(world.discord).command('review', { member: VOTER }).waitForMessage());
    expect(text).toContain('Great ecnetnes desrever server!');
    expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B]/);
  });

  it.each([
    ['no value', (input: Record<string, unknown>) => delete input.value],
    ['a number value', (input: Record<string, unknown>) => (input.value = 42)],
  ])('answers a reply form whose text input has %s with "came back incomplete", posting nothing', async (_, spoil) => {
    const payload = modalSubmit({
      customId: `review-reply-submit:${CRITIC_REVIEW}`,
      fields: { 'reply-content': 'x' },
      selects: { 'reply-pinned': ['no'] },
      member: moderator(),
    });
    spoil((payload.data as { components: Array<{ component: Record<string, unknown> }> }).components[0]!.component);
    const text = textOf(await world.discord.sendInteraction(payload).waitForMessage());
    expect(text).toMatch(/The reply form came back incomplete/);
    expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toEqual([]);
  });

  it.each([
    [
      'a malformed permission string',
      () => Object.assign(slashCommand({ name: 'vote', member: member() }), { app_permissions: 'not-a-number' }),
    ],
    [
      'a modal with no components',
      () => {
        const payload = modalSubmit({
          customId: `review-reply-submit:${CRITIC_REVIEW}`,
          fields: {},
          member: moderator(),
        });
        delete (payload.data as { components?: unknown }).components;
        return payload;
      },
    ],
  ] as Array<[string, () => InteractionPayload]>)(
    'logs one warn line with the interaction id for %s that discord.js cannot build, and no rejection',
    async (_, build) => {
      const handle = world.discord.sendInteraction(build());
      const line = await world.bot.waitForLog((l) => l.interactionId === handle.id && l.level === 40);
      expect(line.msg).toMatch(/could not read/);
      // The next interaction is answered as usual, and nothing else was logged about this one: the
      // log of the next one's handling comes after anything logged about this one.
      const next = asMember(world.discord).command('vote');
      await next.waitForMessage();
      await world.bot.waitForLog((l) => l.msg === 'interaction handled' && l.interactionId === next.id);
      expect(world.bot.logs.filter((l) => l.interactionId === handle.id)).toHaveLength(1);
      expect(world.bot.logs.filter((l) => REJECTION_NOISE(l.msg))).toEqual([]);
    },
  );

  it('labels forged command names and custom ids as unknown in the metrics: 200 forgeries add at most one series', async () => {
    const series = async () => {
      const text = await (await fetch(metricsUrl)).text();
      return new Set(text.split('\n').filter((l) => /^vote_review_bot_interaction[a-z_]*\{.*handler=/.test(l)));
    };
    const before = await series();
    const message = await asMember(world.discord).command('votes').waitForMessage();
    const forged = Array.from({ length: 100 }, (_, i) => [
      world.discord.sendInteraction(slashCommand({ name: `forged-${i}`, member: member() })),
      world.discord.sendInteraction(buttonClick({ customId: `forged-${i}:x`, message, member: member() })),
    ]).flat();
    for (const handle of forged) await handle.waitForResponse();
    await world.discord.waitUntil(
      () =>
        forged.every((h) => world.bot.logs.some((l) => l.msg === 'interaction handled' && l.interactionId === h.id)),
      10_000,
      'the forged interactions handled',
    );
    const after = await series();
    const added = [...after].filter((l) => !before.has(l) && !/handler="\/votes"/.test(l));
    expect(added.every((l) => l.includes('handler="unknown"'))).toBe(true);
    const handlers = new Set([...after].map((l) => /handler="([^"]*)"/.exec(l)?.[1]));
    expect(handlers.size).toBeLessThanOrEqual(6);
  }, 30_000);

  describe('when Discord refuses the bot’s callbacks', () => {
    beforeAll(() => {
      // Every first callback arrives past this deadline and is refused with 10062.
      world.discord.setInteractionDeadline(1);
    });
    afterAll(() => {
      world.discord.setInteractionDeadline(3_000);
    });

    it('logs the failure without the interaction token and without the request body', async () => {
      const handle = asMember(world.discord).command('votes');
      await world.bot.waitForLog((l) => l.msg === 'interaction handled' && l.interactionId === handle.id);
      const failures = world.bot.logs.filter((l) => l.interactionId === handle.id && (l.level as number) >= 40);
      expect(failures.length).toBeGreaterThan(0);
      const text = JSON.stringify(world.bot.logs);
      expect(text).toContain(`/interactions/${handle.id}/[redacted]/callback`);
      expect(text).not.toContain(handle.token);
      expect(text).not.toContain('requestBody');
      expect(text).not.toContain('Active voters');
    });
  });
});

describe('start-up service check', () => {
  it('names the headers it sent and the settings to check when the credentials are refused, and keeps running', async () => {
    const world = await startWorld({ env: { SERVICE_API_KEY: 'not-the-key', SERVICE_HEADER_PREFIX: 'Guilds' } });
    try {
      const line = await world.bot.waitForLog((l) => l.msg === 'service check: credentials refused');
      expect(line).toMatchObject({ level: 40, headersSent: ['Guilds-Api-Key', 'Guilds-App-Id'] });
      expect(JSON.stringify(line)).toContain('SERVICE_HEADER_PREFIX');
      expect(JSON.stringify(world.bot.logs)).not.toContain('not-the-key');
      expect(world.bot.child.exitCode).toBeNull();
    } finally {
      await world.close();
    }
  }, 30_000);

  it('says the base URL is wrong when the service answers 404', async () => {
    const port = await closedPort();
    // One /v1 too many: a path that ends in /v1, so start-up accepts it, but every route is a 404.
    const wrong = await startWorld({
      sandbox: { port },
      env: { SERVICE_BASE_URL: `http://127.0.0.1:${port}/v1/v1` },
    });
    try {
      const line = await wrong.bot.waitForLog((l) => l.msg === 'service check: not found; the base URL is wrong');
      expect(line).toMatchObject({ level: 40, setting: 'SERVICE_BASE_URL' });
    } finally {
      await wrong.close();
    }
  }, 30_000);
});

describe('an uncaught exception', () => {
  it('is logged with a reference id and ends the process with code 1', async () => {
    // The bot's own guards and logger, built, in a process that then throws outside any promise (from
    // a timer callback, the one place no promise can catch it: the timer is the scenario, not a wait).
    const script = `
      const { createLogger } = await import(${JSON.stringify(`${ROOT}dist/src/core/log.js`)});
      const { installProcessGuards } = await import(${JSON.stringify(`${ROOT}dist/src/bot/process-guards.js`)});
      installProcessGuards(createLogger('info'));
      setTimeout(() => { throw new Error('broken state'); }, 10);
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    expect(code).toBe(1);
    const line = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'uncaught exception; exiting', level: 60 });
    expect(line.referenceId).toMatch(/^[0-9A-F]{8}$/);
    expect(JSON.stringify(line.err)).toContain('broken state');
  }, 15_000);
});
