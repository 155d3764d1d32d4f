import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import type { LogFormat } from '../../src/core/log.js';
import { createLogger } from '../../src/core/log.js';

function capture(format: LogFormat, secrets: string[] = []) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger('info', secrets, stream, format), lines };
}

const TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.bot-token-value.abcdefghijklmnop';
const HOOK_TOKEN = 'aW50ZXJhY3Rpb246MTIzOmFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6';

describe('log formats', () => {
  it('writes JSON with an ISO 8601 time', () => {
    const { logger, lines } = capture('json');
    logger.info({ guildId: '1' }, 'store open');
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'store open', level: 30, guildId: '1' });
    expect(line.time).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/));
    expect(Math.abs(Date.parse(line.time as string) - Date.now())).toBeLessThan(60_000);
  });

  it('writes pretty lines a person can read, with the message and level as words', () => {
    const { logger, lines } = capture('pretty');
    logger.warn({ guildId: '1' }, 'discord rate limit');
    const text = lines.join('');
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: discord rate limit/);
    expect(text).toContain('guildId: "1"');
  });

  it('keeps secrets out of pretty output too', () => {
    const { logger, lines } = capture('pretty', [TOKEN]);
    logger.error({ token: 'field-secret-value', detail: `Authorization: Bot ${TOKEN}` }, 'discord client error');
    logger.info({ url: `https://discord.com/api/v10/webhooks/1234567890123456789/${HOOK_TOKEN}/messages` }, 'x');
    const text = lines.join('');
    expect(text).toContain('discord client error');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('field-secret-value');
    expect(text).not.toContain(HOOK_TOKEN);
    expect(text).toContain('/webhooks/1234567890123456789/[redacted]/messages');
  });
});
