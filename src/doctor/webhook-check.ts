import { fail, pass } from './check.js';
import { PLAIN_HTTP_FIX, plainHttpElsewhere } from './plain-http.js';
import { listenerCheck } from './port-check.js';

/**
 * The receiver's settings: its port free, or held by the running bot (told by its process, never
 * assumed), its token, its public URL.
 */
export const webhookCheck = listenerCheck({
  what: 'webhook receiver',
  setting: 'WEBHOOK_PORT',
  settings: (config) => config.webhook,
  off: 'not set; votes and reviews come by polling only.',
  host: (webhook) => webhook.host ?? '0.0.0.0',
  async then(webhook, listening) {
    const token =
      webhook.token === undefined
        ? 'tokens are set per server with /setup webhook'
        : `WEBHOOK_TOKEN is ${webhook.token.length} characters`;
    if (webhook.publicUrl === undefined) return pass(`${listening}; ${token}; WEBHOOK_PUBLIC_URL not set.`);
    const url = new URL(webhook.path, webhook.publicUrl).toString();
    const clear = plainHttpElsewhere(webhook.publicUrl);
    if (clear !== undefined)
      return fail(
        `${listening}; ${token}; WEBHOOK_PUBLIC_URL is plain http on ${clear}, so every list's secret (and the vote) crosses the network in clear.`,
        PLAIN_HTTP_FIX('WEBHOOK_PUBLIC_URL', 'docs/webhooks.md'),
      );
    const reached = await reach(url);
    if (!reached.ok)
      return fail(
        `${listening}; ${token}; WEBHOOK_PUBLIC_URL ${url} is not reachable from here (${reached.cause}).`,
        'check WEBHOOK_PUBLIC_URL, the proxy in front of the receiver and its TLS certificate; Guilds must reach it.',
      );
    return pass(`${listening}; ${token}; WEBHOOK_PUBLIC_URL ${url} answers (HTTP ${reached.status}).`);
  },
});

/** Any HTTP answer means the address reaches a server; only a failed connection or a timeout does not (the list checks use it too). */
export async function reach(url: string): Promise<{ ok: true; status: number } | { ok: false; cause: string }> {
  try {
    const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(5_000), redirect: 'manual' });
    await response.body?.cancel();
    return { ok: true, status: response.status };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, cause: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}
