import { Signal } from './signal.js';
import type { Callback, InteractionPayload, Message, ModalResponse, RejectedCallback, WebhookCall } from './types.js';

export type InteractionResponse = Message | ModalResponse;

/** What a test holds after sending an interaction: everything the bot did with it. */
export interface InteractionHandle {
  readonly id: string;
  readonly token: string;
  readonly payload: InteractionPayload;
  /** When the INTERACTION_CREATE went out on the gateway (epoch ms); NaN while still queued. */
  readonly sentAt: number;
  /** Accepted POST /interactions/{id}/{token}/callback bodies, in order. */
  readonly callbacks: Callback[];
  /** Callbacks Discord would refuse (already acknowledged, too late, invalid), with the error code sent back. */
  readonly rejectedCallbacks: RejectedCallback[];
  /** Every /webhooks/{app}/{token}… request, accepted or not. */
  readonly webhookCalls: WebhookCall[];
  firstCallback(timeoutMs?: number): Promise<Callback>;
  waitFor(predicate: (handle: InteractionHandle) => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves once the member sees an answer: a message (4, 7, or an edit/follow-up after 5/6) or a modal (9). */
  waitForResponse(timeoutMs?: number): Promise<InteractionResponse>;
  /** waitForResponse, failing if the answer is a modal. */
  waitForMessage(timeoutMs?: number): Promise<Message>;
  /** waitForResponse, failing if the answer is a message. */
  waitForModal(timeoutMs?: number): Promise<ModalResponse>;
  /** The current original response (type 4/5 reply, or the component's message after 6/7). */
  message(): Message | undefined;
  /** The modal the bot opened, if it answered with type 9. */
  modal(): ModalResponse | undefined;
  /** Follow-up messages (POST /webhooks/{app}/{token}) that are separate messages, in order. */
  followUps(): Message[];
}

export const DEFAULT_WAIT_MS = 5000;

export function isModal(response: InteractionResponse): response is ModalResponse {
  return 'title' in response && !('channel_id' in response);
}

export class InteractionRecord implements InteractionHandle {
  readonly id: string;
  readonly token: string;
  sentAt = Number.NaN;
  readonly callbacks: Callback[] = [];
  readonly rejectedCallbacks: RejectedCallback[] = [];
  readonly webhookCalls: WebhookCall[] = [];
  /** Id of @original once there is one. */
  originalId: string | undefined;
  /** Id of the message that is the visible answer, once there is one. */
  answerId: string | undefined;
  modalData: ModalResponse | undefined;
  readonly followUpIds: string[] = [];
  private readonly signal = new Signal();

  constructor(
    readonly payload: InteractionPayload,
    private readonly lookup: (messageId: string) => Message | undefined,
  ) {
    this.id = payload.id;
    this.token = payload.token;
  }

  get acknowledged(): boolean {
    return this.callbacks.length > 0;
  }

  changed(): void {
    this.signal.notify();
  }

  cancel(reason: string): void {
    this.signal.cancelAll(reason);
  }

  message(): Message | undefined {
    return this.originalId === undefined ? undefined : this.lookup(this.originalId);
  }

  modal(): ModalResponse | undefined {
    return this.modalData;
  }

  followUps(): Message[] {
    return this.followUpIds.flatMap((id) => this.lookup(id) ?? []);
  }

  response(): InteractionResponse | undefined {
    if (this.modalData) return this.modalData;
    return this.answerId === undefined ? undefined : this.lookup(this.answerId);
  }

  describe(): string {
    const callbacks = this.callbacks.map((c) => c.type).join(',') || 'none';
    const rejected = this.rejectedCallbacks.map((c) => `${c.type}→${c.code}`).join(',') || 'none';
    const calls =
      this.webhookCalls.map((c) => `${c.method} ${c.path.replace(this.token, '{token}')} → ${c.status}`).join('; ') ||
      'none';
    const sent = Number.isNaN(this.sentAt) ? 'not yet dispatched' : 'dispatched';
    return `interaction ${this.id} (type ${this.payload.type}, ${sent}); callbacks: ${callbacks}; rejected: ${rejected}; webhook calls: ${calls}`;
  }

  waitFor(predicate: (handle: InteractionHandle) => boolean, timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    return this.signal.wait(
      () => predicate(this),
      timeoutMs,
      () => this.describe(),
    );
  }

  async firstCallback(timeoutMs = DEFAULT_WAIT_MS): Promise<Callback> {
    await this.waitFor(() => this.callbacks.length > 0, timeoutMs);
    return this.callbacks[0]!;
  }

  async waitForResponse(timeoutMs = DEFAULT_WAIT_MS): Promise<InteractionResponse> {
    let answer: InteractionResponse | undefined;
    await this.signal.wait(
      () => (answer = this.response()) !== undefined,
      timeoutMs,
      () => `no visible answer yet: ${this.describe()}`,
    );
    return answer!;
  }

  async waitForMessage(timeoutMs = DEFAULT_WAIT_MS): Promise<Message> {
    const answer = await this.waitForResponse(timeoutMs);
    if (isModal(answer)) throw new Error(`Expected a message but the bot opened modal ${answer.custom_id}`);
    return answer;
  }

  async waitForModal(timeoutMs = DEFAULT_WAIT_MS): Promise<ModalResponse> {
    const answer = await this.waitForResponse(timeoutMs);
    if (!isModal(answer)) throw new Error(`Expected a modal but the bot answered with a message: ${answer.content}`);
    return answer;
  }
}
