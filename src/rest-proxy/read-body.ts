import type { IncomingMessage } from 'node:http';

export type BodyRead =
  | { readonly kind: 'read'; readonly body: Buffer }
  | { readonly kind: 'too_large' }
  /** The caller closed the connection before the body was in. */
  | { readonly kind: 'gone' };

/** A body whose `content-length` is over the cap: refused before a byte of it is read. */
export function declaredOver(req: IncomingMessage, maxBytes: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > maxBytes;
}

/**
 * The request's body, read until it passes `maxBytes` and no further: a chunked body has no length
 * to check first. Past the cap, reading stops and the stream is left paused for the answer to close.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (read: BodyRead) => {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        finish({ kind: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: 'read', body: Buffer.concat(chunks) });
    const onGone = () => finish({ kind: 'gone' });
    req.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
  });
}
