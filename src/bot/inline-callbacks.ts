import {
  DefaultRestOptions,
  InteractionResponseType,
  type Client,
  type RESTOptions,
  type ResponseLike,
} from 'discord.js';
import { INLINE_DEADLINE_MS } from './answer-deadlines.js';

/** What goes back as the HTTP response to Discord: an interaction callback's body as REST would send it. */
export interface InlineAnswer {
  readonly body: Buffer;
  readonly contentType: string;
  /** 200 unless the interaction was refused before any handler saw it. */
  readonly status?: number;
}

/** The facts about an interaction that came over HTTP that its answer needs. */
export interface InlineInteraction {
  readonly id: string;
  readonly applicationId: string;
  readonly token: string;
  /** The interaction's creation (its id's timestamp), from which Discord's 3 s count. */
  readonly createdAt: number;
  /** What is sent when no callback comes in time: a deferral of the kind the interaction takes. */
  readonly fallback: { type: number; data?: unknown };
}

/** An interaction token lives 15 min; a deferral sent here is remembered no longer. */
const TOKEN_LIFE_MS = 15 * 60_000;

const CALLBACK_ROUTE = /\/interactions\/(\d+)\/([^/?]+)\/callback(?=\?|$)/;

const byClient = new WeakMap<Client, InlineCallbacks>();

/** The InlineCallbacks a client's REST sends through, if it serves interactions over HTTP. */
export function inlineCallbacksOf(client: Client): InlineCallbacks | undefined {
  return byClient.get(client);
}

/**
 * Interactions Discord delivered over HTTP are answered in the HTTP response: the first callback a
 * handler makes (reply, deferReply, update, deferUpdate, showModal) is caught on its way to REST
 * (`makeRequest`) and becomes that response. The handlers are the gateway's, unchanged. One that
 * makes no callback in time gets a deferral from here, and its later reply or update is turned
 * into an edit of the deferred answer, as over the gateway after a deferral.
 */
export class InlineCallbacks {
  readonly #waiting = new Map<string, (answer: InlineAnswer) => void>();
  /** Deferred here, by id: the application id a late answer's edit is sent under. */
  readonly #deferred = new Map<string, string>();
  readonly #send: RESTOptions['makeRequest'];

  constructor(send: RESTOptions['makeRequest'] = DefaultRestOptions.makeRequest) {
    this.#send = send;
  }

  /** Makes `client`'s callbacks go through this; its REST must have been made with `makeRequest`. */
  attach(client: Client): void {
    byClient.set(client, this);
  }

  /** Whether a callback for this interaction is answered here rather than sent to Discord. */
  claims(interactionId: string): boolean {
    return this.#waiting.has(interactionId) || this.#deferred.has(interactionId);
  }

  /** The interaction's first callback, or its fallback deferral once INLINE_DEADLINE_MS has passed. */
  answer(interaction: InlineInteraction, now = Date.now()): Promise<InlineAnswer> {
    const delay = Math.max(0, INLINE_DEADLINE_MS - Math.max(0, now - interaction.createdAt));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (!this.#waiting.delete(interaction.id)) return;
        this.#deferred.set(interaction.id, interaction.applicationId);
        setTimeout(() => this.#deferred.delete(interaction.id), TOKEN_LIFE_MS).unref();
        resolve(jsonAnswer(JSON.stringify(interaction.fallback)));
      }, delay);
      this.#waiting.set(interaction.id, (answer) => {
        clearTimeout(timer);
        this.#waiting.delete(interaction.id);
        resolve(answer);
      });
    });
  }

  /**
   * A callback handed here directly (reply-fast's plain answer) rather than through REST, whose queue
   * and handler it would only pass through: true when it became the HTTP response, false when the
   * interaction waits no longer (deferred here), so the callback goes through REST to become an edit.
   */
  answerWith(interactionId: string, callback: { type: number; data?: unknown }): boolean {
    const waiting = this.#waiting.get(interactionId);
    if (waiting === undefined) return false;
    waiting(jsonAnswer(JSON.stringify(callback)));
    return true;
  }

  /** REST's makeRequest: a claimed interaction's callback is answered here, anything else is sent. */
  readonly makeRequest: RESTOptions['makeRequest'] = async (url, init) => {
    const route = CALLBACK_ROUTE.exec(url);
    const id = route?.[1];
    if (id === undefined) return this.#send(url, init);
    const waiting = this.#waiting.get(id);
    if (waiting) {
      waiting(await answerOf(init.body));
      return new Response(null, { status: 204 });
    }
    const applicationId = this.#deferred.get(id);
    if (applicationId === undefined) return this.#send(url, init);
    this.#deferred.delete(id);
    return this.#late(url, init, applicationId, route![2]!);
  };

  /** A handler's callback after the deferral sent here: a reply or update edits the deferred answer. */
  async #late(url: string, init: Parameters<RESTOptions['makeRequest']>[1], applicationId: string, token: string) {
    const { form, callback } = await callbackOf(init.body);
    const type = callback.type;
    if (
      type === InteractionResponseType.DeferredChannelMessageWithSource ||
      type === InteractionResponseType.DeferredMessageUpdate
    )
      return new Response(null, { status: 204 });
    if (type !== InteractionResponseType.ChannelMessageWithSource && type !== InteractionResponseType.UpdateMessage)
      return alreadyAcknowledged();
    const edit = url
      .replace(CALLBACK_ROUTE, `/webhooks/${applicationId}/${token}/messages/@original`)
      .replace(/\?.*$/, '');
    const data = JSON.stringify(callback.data ?? {});
    if (form) form.set('payload_json', data);
    const headers = new Headers(init.headers as ConstructorParameters<typeof Headers>[0]);
    if (!form) headers.set('content-type', 'application/json');
    else headers.delete('content-type');
    return this.#send(edit, { ...init, method: 'PATCH', headers, body: form ?? data });
  }
}

function jsonAnswer(text: string): InlineAnswer {
  return { body: Buffer.from(text, 'utf8'), contentType: 'application/json' };
}

/** A callback's body as REST made it: JSON text, or a form whose `payload_json` holds it beside files. */
async function answerOf(body: unknown): Promise<InlineAnswer> {
  if (typeof body === 'string') return jsonAnswer(body);
  const response = new Response(body as ConstructorParameters<typeof Response>[0]);
  return {
    body: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
  };
}

async function callbackOf(body: unknown): Promise<{ form?: FormData; callback: { type?: number; data?: unknown } }> {
  if (body instanceof FormData) {
    const json = body.get('payload_json');
    return { form: body, callback: typeof json === 'string' ? JSON.parse(json) : {} };
  }
  const text = typeof body === 'string' ? body : (await answerOf(body)).body.toString('utf8');
  return { callback: JSON.parse(text) as { type?: number; data?: unknown } };
}

/** Discord's answer to a second callback, as a REST response, so discord.js throws its DiscordAPIError. */
function alreadyAcknowledged(): ResponseLike {
  const body = JSON.stringify({ message: 'Interaction has already been acknowledged.', code: 40060 });
  return new Response(body, { status: 400, headers: { 'content-type': 'application/json' } });
}
