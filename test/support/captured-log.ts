import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/core/log.js';

export interface LogLine {
  level: number;
  msg: string;
  userId?: string;
  [field: string]: unknown;
}

/** The bot's logger writing parsed JSON lines into an array instead of stdout. */
export function capturedLog(secrets: readonly string[] = []): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { logger: createLogger('info', [...secrets], sink), lines };
}
