import { DefaultRestOptions, type RESTOptions } from '@discordjs/rest';

/** Carries a request's number from forward.ts to makeRequest; taken off before it is sent. */
const MARK = 'x-rest-proxy-request';

export interface Watched {
  /** Whether the request has gone on the wire (then it is left to finish). */
  sent(): boolean;
  /** Forget it, whatever became of it. */
  done(): void;
}

/**
 * Tells which requests have left the proxy's queue for Discord. @discordjs/rest aborts a request
 * on its `signal` wherever it is, sent or not; the proxy aborts only those still queued, since
 * one already sent has reached Discord and cancelling it saves nothing. makeRequest is the one
 * call every sent request passes through, and the request's headers are all it shares with the
 * caller: so each request carries a mark there, read and removed as it goes out.
 */
export class WireWatch {
  #next = 0;
  readonly #waiting = new Map<string, { sent: boolean }>();

  /** REST's makeRequest: the default, after noting the request as sent. */
  readonly makeRequest: RESTOptions['makeRequest'] = (url, init) => {
    const headers = init.headers as Record<string, string> | undefined;
    const id = headers?.[MARK];
    if (headers && id !== undefined) {
      delete headers[MARK];
      const state = this.#waiting.get(id);
      if (state) state.sent = true;
    }
    return DefaultRestOptions.makeRequest(url, init);
  };

  /** Marks the headers of a request about to be queued. */
  watch(headers: Record<string, string>): Watched {
    const id = String((this.#next += 1));
    const state = { sent: false };
    this.#waiting.set(id, state);
    headers[MARK] = id;
    return { sent: () => state.sent, done: () => this.#waiting.delete(id) };
  }
}
