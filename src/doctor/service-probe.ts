import type { Config } from '../config/bot.js';

export interface ProbeAnswer {
  path: string;
  status: number;
  headers: Headers;
  /** The parsed body; undefined when empty, `invalidJson` when it did not parse. */
  body: unknown;
  invalidJson: boolean;
  ms: number;
}

export type ProbeResult = ProbeAnswer | { path: string; error: string };

export const headerNames = (prefix: string) => [`${prefix}-Api-Key`, `${prefix}-App-Id`] as const;

/**
 * Raw GETs to the service, outside the API module on purpose: the doctor wants to see every status
 * and header as sent (no retries, cache or limiter in between). Never POST: a probe changes nothing.
 */
export class ServiceProbe {
  readonly answers: ProbeAnswer[] = [];
  /** GET /votes with the configured credentials: the first call, which later checks build on. */
  votes?: ProbeResult;
  /** Set once a GET was answered 2xx with the configured credentials. */
  accepted = false;

  constructor(private readonly config: Config['service'] & { readonly apiKey: string; readonly appId: string }) {}

  get baseUrl(): string {
    return this.config.baseUrl;
  }

  get headerPrefix(): string {
    return this.config.headerPrefix;
  }

  /** GET base + path with the configured credentials, or with another header prefix. */
  async get(path: string, headerPrefix = this.config.headerPrefix): Promise<ProbeResult> {
    const [keyHeader, appIdHeader] = headerNames(headerPrefix);
    const started = performance.now();
    try {
      const response = await fetch(`${this.config.baseUrl}${path}`, {
        headers: { [keyHeader]: this.config.apiKey, [appIdHeader]: this.config.appId, Accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(this.config.attemptTimeoutMs),
      });
      const text = await response.text();
      const answer: ProbeAnswer = {
        path,
        status: response.status,
        headers: response.headers,
        ...parse(text),
        ms: Math.round(performance.now() - started),
      };
      this.answers.push(answer);
      return answer;
    } catch (error) {
      const e = error as { name?: string; cause?: { code?: string } };
      const reason = e.name === 'TimeoutError' ? `no answer within ${this.config.attemptTimeoutMs} ms` : e.cause?.code;
      return { path, error: reason ?? 'network error' };
    }
  }
}

function parse(text: string): { body: unknown; invalidJson: boolean } {
  if (text.trim() === '') return { body: undefined, invalidJson: false };
  try {
    return { body: JSON.parse(text) as unknown, invalidJson: false };
  } catch {
    return { body: undefined, invalidJson: true };
  }
}
