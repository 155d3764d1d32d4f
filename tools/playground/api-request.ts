import { english } from '../../src/i18n/index.js';
import type { Message } from '../discord-standin/index.js';
import type { SendRequest } from './send-line.js';
import type { PlaygroundServer } from './servers.js';

/* `send api vote member:bob`: the playground asks the bot's vote API as another bot would, with the
 * server's key (API_KEYS in one-server mode; with many servers, the one /setup api-key create showed),
 * and prints the answer and its rate-limit headers. */

type ApiRequest = Extract<SendRequest, { kind: 'api' }>;
/** What `send` prints, and its status (as control.ts's answers). */
type ApiAnswer = { status: number; text: string };

/** The key the playground writes to API_KEYS for its one server: made up, the receiver listens on loopback only. */
export const PLAYGROUND_API_KEY = 'vrk_playground-api-key-0123456789abcdef';

const KEY = /vrk_[A-Za-z0-9_-]{32,200}/;

/** `/setup api-key create` shows a new key whole once: kept, so `send api` can ask with it. */
export function keepApiKey(keys: Map<string, string>, server: PlaygroundServer, answer: Message): void {
  const title = answer.embeds?.[0]?.title ?? '';
  const key = KEY.exec(answer.embeds?.[0]?.description ?? '')?.[0];
  if (key !== undefined && title.includes(english.t('setup.apiKey.created.title'))) keys.set(server.id, key);
}

/** The vote API's answer to the request, as text. */
export async function askApi(webhookUrl: string, keys: Map<string, string>, request: ApiRequest): Promise<ApiAnswer> {
  const { server } = request;
  const key = keys.get(server.id);
  if (key === undefined)
    return {
      status: 409,
      text: `Server ${server.n} has no API key the playground saw: send /setup api-key create name:playground --server ${server.n} first.\n`,
    };
  const base = `/api/v1/guilds/${server.id}`;
  const path = request.what === 'vote' ? `${base}/members/${request.member.id}/vote` : `${base}/votes`;
  const url = `${new URL(webhookUrl).origin}${path}`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  } catch {
    return { status: 503, text: `Nothing listens at ${url}: start the bot with the playground's settings.\n` };
  }
  const text = await response.text();
  let body = text;
  try {
    body = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON (nothing the API sends): shown as it came.
  }
  const limits = ['limit', 'remaining', 'reset'].map(
    (name) => `${name} ${response.headers.get(`x-ratelimit-${name}`) ?? '–'}`,
  );
  const head = `API › GET ${path} → ${response.status} (rate limit: ${limits.join(', ')})`;
  return { status: response.ok ? 200 : 502, text: `${head}\n${body}\n` };
}
