import { request, type OutgoingHttpHeaders } from 'node:http';

/**
 * POSTs a chunked body, `chunkBytes` at a time, until the server answers or cuts the connection, at
 * most `upTo` bytes: a body with no length to refuse up front. `status` is 0 when no answer was read.
 */
export function postChunked(
  url: string,
  headers: OutgoingHttpHeaders,
  upTo: number,
  chunkBytes: number,
): Promise<{ status: number; written: number }> {
  return new Promise((resolve) => {
    let status = 0;
    let written = 0;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      req.destroy();
      resolve({ status, written });
    };
    const req = request(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } });
    req.once('response', (res) => {
      status = res.statusCode ?? 0;
      res.resume().once('end', finish).once('error', finish);
    });
    req.once('error', finish).once('close', finish);
    const chunk = Buffer.alloc(chunkBytes, 1);
    const write = () => {
      while (!finished && written < upTo) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      if (!finished) req.end();
    };
    write();
  });
}
