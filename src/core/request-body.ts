import type { IncomingMessage, ServerResponse } from 'node:http';

const LINGER_MS = 3_000;
const LINGER_BYTES = 1024 * 1024;

export type BodyRead =
  | { readonly kind: 'read'; readonly body: Buffer }
  | { readonly kind: 'too_large' }
  /** The caller closed the connection before the body was in. */
  | { readonly kind: 'gone' };

/**
 * The request's body, read until it passes `maxBytes` and no further: a chunked body has no length
 * to check first. Past the cap, reading stops and the stream is left paused for the answer to close.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  // A declared length over the cap is refused before a byte of the body is read.
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ kind: 'too_large' });
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

/**
 * Readies a refused caller's connection to close after the answer without losing it. Node ends a
 * `connection: close` socket with destroySoon() (end, then destroy at once), and closing it with the
 * caller's body unread makes the kernel send a reset that can reach a busy caller before it has read
 * the answer: its next write fails (EPIPE) and the 413 is never seen (1 in 25 of four concurrent
 * refusals beside two busy cores). So the socket half-closes instead, reads and throws away up to
 * LINGER_BYTES, then stops reading (TCP holds the caller back), and is cut after LINGER_MS.
 * Call it before the answer, which must say `connection: close`.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  socket.destroySoon = () => void socket.end();
  res.setHeader('connection', 'close');
  res.once('finish', () => {
    let drained = 0;
    req.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > LINGER_BYTES) socket.pause();
    });
    req.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

/** A request header's value; a repeated header counts as its first value. */
export function firstHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
