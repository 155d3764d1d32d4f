import { describe, expect, it } from '@jest/globals';
import { parseConfig } from '../../src/config/bot.js';
import { problemsOf, VALID_ENV } from '../support/config-env.js';

describe('LOG_FORMAT', () => {
  it('is pretty at a terminal and JSON anywhere else, unless set', () => {
    expect(parseConfig(VALID_ENV, true).logFormat).toBe('pretty');
    expect(parseConfig(VALID_ENV, false).logFormat).toBe('json');
    expect(parseConfig({ ...VALID_ENV, LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(parseConfig({ ...VALID_ENV, LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
  });

  it('refuses another value, naming the setting and its choices', () => {
    expect(problemsOf({ ...VALID_ENV, LOG_FORMAT: 'xml' })).toEqual([
      expect.stringMatching(/^LOG_FORMAT must be json .* or pretty/),
    ]);
  });
});

describe('configuration messages', () => {
  it('says a number that does not parse must be a whole number, not a parser’s own text', () => {
    const problems = problemsOf({ ...VALID_ENV, SERVICE_TIMEOUT_MS: 'soon', VOTE_POLL_SECONDS: '1.5' });
    expect(problems).toEqual([
      'SERVICE_TIMEOUT_MS must be a whole number from 100 to 60000',
      'VOTE_POLL_SECONDS must be a whole number from 0 to 86400',
    ]);
    expect(problems.join('\n')).not.toMatch(/Invalid input|expected number|NaN/);
  });

  it('reports every problem in one pass, WEBHOOK_TOKEN with the rest', () => {
    const problems = problemsOf({
      ...VALID_ENV,
      WEBHOOK_PORT: '8080',
      SHUTDOWN_GRACE_MS: 'later',
      LOG_FORMAT: 'loud',
      DISCORD_CLIENT_ID: 'abc',
    });
    expect(problems.map((p) => p.split(' ')[0]).sort()).toEqual([
      'DISCORD_CLIENT_ID',
      'LOG_FORMAT',
      'SHUTDOWN_GRACE_MS',
      'WEBHOOK_TOKEN',
    ]);
  });
});
