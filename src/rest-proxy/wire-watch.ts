import { DefaultRestOptions, type RESTOptions } from '@discordjs/rest';
import type { Pacer } from './pacer.js';

/** Carries a request's number from forward.ts to makeRequest; taken off before it is sent. */
const MARK = 'x-rest-proxy-request';

export interface Watched {
  /** Whether the request is on the wire, or was answered by anything but a 429 (then it is left to finish). */
  sent(): boolean;
  /** Forget it, whatever became of it. */
  done(): void;
}

interface State {
  sent: boolean;
  /** Whether it counts against Discord's global limit, and so waits for the pacer's turn. */
  paced: boolean;
  /** Told when Discord answered 429: nothing was done, and REST will send it again after the wait. */
  refused: () => void;
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
  readonly #waiting = new Map<string, State>();

  constructor(private readonly pacer?: Pacer) {}

  /** REST's makeRequest: the default, noting the request as sent, and as not sent again after a 429. */
  readonly makeRequest: RESTOptions['makeRequest'] = async (url, init) => {
    const headers = init.headers as Record<string, string> | undefined;
    const id = headers?.[MARK];
    const state = id === undefined ? undefined : this.#waiting.get(id);
    if (headers && id !== undefined) delete headers[MARK];
    // Before it counts as sent: a caller who hangs up while it waits for its turn has it dropped.
    if (state?.paced) await this.pacer?.turn(init.signal);
    // An aborted request goes nowhere: REST still calls this to send it, and it throws at once.
    if (state && !init.signal?.aborted) state.sent = true;
    const response = await DefaultRestOptions.makeRequest(url, init);
    if (state && headers && id !== undefined && response.status === 429) {
      // A 429 is a request Discord did not act on: until REST sends it again it waits like a queued
      // one, and a caller who hangs up meanwhile has it dropped (forward.ts), not sent after it left.
      state.sent = false;
      headers[MARK] = id;
      state.refused();
    }
    return response;
  };

  /**
   * Marks the headers of a request about to be queued; `refused` is told of each 429 it meets.
   * `paced`: it counts against Discord's global limit (each send, a resend after a 429 too).
   */
  watch(headers: Record<string, string>, paced: boolean, refused: () => void = () => undefined): Watched {
    const id = String((this.#next += 1));
    const state: State = { sent: false, paced, refused };
    this.#waiting.set(id, state);
    headers[MARK] = id;
    return { sent: () => state.sent, done: () => this.#waiting.delete(id) };
  }
}
