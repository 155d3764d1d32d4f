import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/**
 * How a request to an Interactions Endpoint URL is signed: as Discord does (`valid`), or in one of
 * the ways Discord itself tries when it checks an endpoint refuses them.
 */
export type Signing = 'valid' | 'other-key' | 'none' | 'tampered' | 'old' | 'future';

/** What the endpoint answered. */
export interface HttpAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
}

/** Discord's Ed25519 key pair: the public half is what a bot sets as DISCORD_PUBLIC_KEY. */
export class InteractionSigner {
  readonly publicKeyHex: string;
  readonly #privateKey: KeyObject;
  readonly #otherKey: KeyObject;
  /** The last request sent, byte for byte, as a man in the middle would have captured it. */
  #last: { headers: Record<string, string>; body: string } | undefined;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    this.#privateKey = privateKey;
    this.#otherKey = generateKeyPairSync('ed25519').privateKey;
    this.publicKeyHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
  }

  /** POSTs `body` to `url` with X-Signature-Ed25519 and X-Signature-Timestamp, signed as `signing` says. */
  async post(url: string, body: string, signing: Signing = 'valid'): Promise<HttpAnswer> {
    const skewMs = signing === 'old' ? -600_000 : signing === 'future' ? 600_000 : 0;
    const timestamp = String(Math.floor((Date.now() + skewMs) / 1000));
    const key = signing === 'other-key' ? this.#otherKey : this.#privateKey;
    const signature = sign(null, Buffer.from(timestamp + body), key).toString('hex');
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signing !== 'none') {
      headers['x-signature-ed25519'] = signature;
      headers['x-signature-timestamp'] = timestamp;
    }
    // One byte changed after signing, as a man in the middle would.
    const sent =
      signing === 'tampered' ? body.replace(/"type":(\d)/, (_, d: string) => `"type":${(Number(d) + 1) % 10}`) : body;
    this.#last = { headers, body: sent };
    return this.#send(url, headers, sent);
  }

  /** Sends the last request again exactly as it was (its signature and timestamp too), to `url`. */
  replay(url: string): Promise<HttpAnswer> {
    if (this.#last === undefined) throw new Error('nothing was sent to replay');
    return this.#send(url, this.#last.headers, this.#last.body);
  }

  async #send(url: string, headers: Record<string, string>, sent: string): Promise<HttpAnswer> {
    // undici's request, not fetch: the bench sends thousands a second from the process that also
    // plays Discord, and fetch's WHATWG layer costs about four times the CPU per request.
    // Loaded on the first send: most files that start a stand-in never sign a request.
    const { request } = await import('undici');
    const response = await request(url, { method: 'POST', headers, body: sent });
    const contentType = response.headers['content-type'];
    return {
      status: response.statusCode,
      contentType: (Array.isArray(contentType) ? contentType[0] : contentType) ?? '',
      body: Buffer.from(await response.body.arrayBuffer()),
    };
  }
}
