import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { createLogger } from '../../src/core/log.js';

/** A logger writing into an array, as it writes to stdout in the bot. */
function capture(secrets: string[] = []) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger('info', secrets, stream), lines };
}

const TOKEN = 'aW50ZXJhY3Rpb246MTIzOmFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6';

/** What discord.js throws when Discord refuses a callback: the URL holds the interaction token. */
function refusedCallback(): Error {
  return Object.assign(new Error('Unknown interaction'), {
    name: 'DiscordAPIError',
    code: 10062,
    method: 'POST',
    url: `http://127.0.0.1:1/api/v10/interactions/1234567890123456789/${TOKEN}/callback?with_response=false`,
    requestBody: { files: [], json: { type: 4, data: { content: 'a member’s private answer' } } },
  });
}

describe('the logger', () => {
  it('redacts the token in interaction and webhook URLs', () => {
    const { logger, lines } = capture();
    logger.warn({ err: refusedCallback() }, 'could not answer');
    logger.info({ url: `https://discord.com/api/v10/webhooks/1234567890123456789/${TOKEN}/messages/@original` }, 'x');
    const text = lines.join('');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('/interactions/1234567890123456789/[redacted]/callback');
    expect(text).toContain('/webhooks/1234567890123456789/[redacted]/messages');
  });

  it('does not log the request body a failed Discord request carried', () => {
    const { logger, lines } = capture();
    logger.warn({ err: refusedCallback() }, 'could not answer');
    expect(lines.join('')).not.toContain('private answer');
    expect(JSON.parse(lines[0]!).err).toMatchObject({ code: 10062, message: 'Unknown interaction' });
  });

  it('scrubs a secret also in the form JSON escapes it', () => {
    const secret = 'key-with-"quote"-and-\\backslash';
    const { logger, lines } = capture([secret]);
    logger.info({ detail: `header value ${secret}` }, 'echo');
    const text = lines.join('');
    expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(text).toContain('[redacted]');
  });

  it('censors secret fields at the top and one level down, leaving the logged object as it was', () => {
    const { logger, lines } = capture();
    const logged = {
      token: 'bot-token-value',
      guildId: '42',
      service: { apiKey: 'api-key-value', appId: 'app-id-value', attempt: 2 },
      headers: { authorization: 'Bot bot-token-value', accept: 'json' },
      request: { headers: { authorization: 'Bearer nested-value' } },
    };
    const before = JSON.stringify(logged);
    logger.info(logged, 'x');
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      token: '[redacted]',
      guildId: '42',
      service: { apiKey: '[redacted]', appId: '[redacted]', attempt: 2 },
      headers: { authorization: '[redacted]', accept: 'json' },
      request: { headers: { authorization: '[redacted]' } },
    });
    expect(lines[0]).not.toMatch(/bot-token-value|api-key-value|app-id-value|nested-value/);
    expect(JSON.stringify(logged)).toBe(before);
  });
});
