import { describe, expect, it } from '@jest/globals';
import { parseVoteUrl } from '../../../src/setup/vote-url.js';
import { serverWebhookUrl } from '../../../src/setup/webhook.js';
import { readCredentials } from '../../../src/views/credentials-modal.js';

describe('the vote link /setup vote-url takes', () => {
  it('takes an https address with a host', () => {
    expect(parseVoteUrl('https://guilds.me/server/1234')).toBe('https://guilds.me/server/1234');
    expect(parseVoteUrl('  https://guilds.me/server/1234  ')).toBe('https://guilds.me/server/1234');
  });

  it.each([
    ['plain http', 'http://guilds.me/server/1'],
    ['a script', 'javascript:alert(1)'],
    ['no scheme', 'guilds.me/server/1'],
    ['credentials in it', 'https://user:pass@guilds.me/server/1'],
    ['spaces', 'https://guilds.me/server 1'],
    ['longer than a link button takes', `https://guilds.me/${'a'.repeat(512)}`],
    ['nothing', ''],
  ])('refuses %s', (_, text) => {
    expect(parseVoteUrl(text)).toBeNull();
  });
});

describe('the credentials form', () => {
  it('trims both values and refuses one that is empty, missing, spaced or not text', () => {
    expect(readCredentials({ apiKey: ' key-1 ', appId: 'app-1\n' })).toEqual({ apiKey: 'key-1', appId: 'app-1' });
    expect(readCredentials({ apiKey: '', appId: 'app-1' })).toBeNull();
    expect(readCredentials({ apiKey: 'key-1', appId: undefined })).toBeNull();
    expect(readCredentials({ apiKey: 'key 1', appId: 'app-1' })).toBeNull();
    expect(readCredentials({ apiKey: 42, appId: 'app-1' })).toBeNull();
    expect(readCredentials({ apiKey: 'k'.repeat(201), appId: 'app-1' })).toBeNull();
  });
});

describe("a server's webhook address", () => {
  it('is the public address, the path and the server id, with no doubled slash', () => {
    expect(serverWebhookUrl('https://bot.example.com', '/webhook', '123456789012345678')).toBe(
      'https://bot.example.com/webhook/123456789012345678',
    );
    expect(serverWebhookUrl('https://bot.example.com/', '/hooks/', '123456789012345678')).toBe(
      'https://bot.example.com/hooks/123456789012345678',
    );
  });
});
