import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { closedPort } from './closed-port.js';

/** An answer as a visitor sees it: the status, the headers, the page, where a redirect points. */
export interface Visit {
  status: number;
  headers: Headers;
  text: string;
  location: string | undefined;
  url: string;
  /** The Set-Cookie lines of this answer, as sent. */
  setCookies: string[];
}

/**
 * A browser without JavaScript, for the dashboard's e2e tests: it keeps the dashboard's cookies,
 * sends them back to its address only, and follows redirects when asked (through the Discord
 * stand-in's consent page too).
 */
export class DashboardVisitor {
  readonly cookies = new Map<string, string>();

  private readonly dispatcher: Agent | undefined;

  /** `localAddress` (such as 127.0.0.2): requests come from another loopback address, as another visitor's would. */
  constructor(
    readonly base: string,
    localAddress?: string,
  ) {
    this.dispatcher =
      localAddress === undefined ? undefined : new Agent({ localAddress } as ConstructorParameters<typeof Agent>[0]);
  }

  async request(
    method: string,
    path: string,
    form?: Record<string, string>,
    extraHeaders: Record<string, string> = {},
  ): Promise<Visit> {
    const url = new URL(path, this.base).toString();
    const ours = url.startsWith(this.base);
    const headers: Record<string, string> = { ...extraHeaders };
    if (ours && this.cookies.size > 0)
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, {
      method,
      headers,
      redirect: 'manual',
      body: form ? new URLSearchParams(form).toString() : undefined,
      ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
    } as RequestInit);
    const setCookies = response.headers.getSetCookie();
    if (ours) for (const line of setCookies) this.keep(line);
    const location = response.headers.get('location') ?? undefined;
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: location === undefined ? undefined : new URL(location, url).toString(),
      url,
      setCookies,
    };
  }

  /** `headers` such as X-Forwarded-For, as a reverse proxy (or a stranger pretending to be one) sends them. */
  get(path: string, headers?: Record<string, string>): Promise<Visit> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, form: Record<string, string>): Promise<Visit> {
    return this.request('POST', path, form);
  }

  /** GETs the path and follows each redirect (at most 10); every answer on the way, last one last. */
  async follow(path: string): Promise<Visit[]> {
    const visits = [await this.get(path)];
    while (visits.at(-1)!.location !== undefined) {
      if (visits.length > 10) throw new Error(`more than 10 redirects from ${path}`);
      visits.push(await this.get(visits.at(-1)!.location!));
    }
    return visits;
  }

  /** Signs in through /login and the stand-in's consent page (as whoever `oauthAs` chose): the last page. */
  async signIn(next?: string): Promise<Visit> {
    const visits = await this.follow(next === undefined ? '/login' : `/login?next=${encodeURIComponent(next)}`);
    return visits.at(-1)!;
  }

  /** The session's form token, read from the logout form every page carries. */
  static csrfOf(page: string): string {
    const token = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
    if (token === undefined) throw new Error('no form token on the page');
    return token;
  }

  private keep(line: string): void {
    const [pair, ...attributes] = line.split(';');
    const at = pair!.indexOf('=');
    const name = pair!.slice(0, at).trim();
    const value = pair!.slice(at + 1).trim();
    const gone =
      value === '' ||
      attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) ||
      attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now());
    if (gone) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** A dashboard on a free loopback port: the bot's settings for it, and the address members open. */
export async function dashboardSettings(): Promise<{ publicUrl: string; env: Record<string, string> }> {
  const port = await closedPort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const env = {
    DASHBOARD_PORT: String(port),
    DASHBOARD_HOST: '127.0.0.1',
    DASHBOARD_PUBLIC_URL: publicUrl,
    SESSION_KEY: randomBytes(32).toString('base64'),
  };
  return { publicUrl, env };
}
