import { Worker } from 'node:worker_threads';
import type { StatsPicture } from './draw-stats.js';
import type { DrawAnswer, DrawRequest } from './draw-worker.js';

/** A drawing thread with nothing to draw for this long is ended: its chart.js and canvas leave memory. */
const IDLE_MS = 60_000;

/**
 * Draws stats pictures on a worker thread, started on the first picture and ended when idle. A
 * thread that fails fails the pictures it was drawing; the next picture starts a new one.
 */
export class StatsRenderer {
  #worker: Worker | undefined;
  #next = 0;
  #idle: NodeJS.Timeout | undefined;
  readonly #waiting = new Map<number, { resolve: (png: Buffer) => void; reject: (error: Error) => void }>();

  draw(picture: StatsPicture): Promise<Buffer> {
    const worker = this.#running();
    const id = (this.#next += 1);
    clearTimeout(this.#idle);
    // Held while a picture is awaited, so the process waits for it; let go when none is.
    worker.ref();
    return new Promise<Buffer>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.postMessage({ id, picture } satisfies DrawRequest);
    });
  }

  async close(): Promise<void> {
    clearTimeout(this.#idle);
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #running(): Worker {
    if (this.#worker) return this.#worker;
    // None of the process's own flags: they are for the main thread (and some refuse a worker).
    // Through package.json's "imports": `npm start` runs this module from a bundle (bundle.js), not
    // from beside draw-worker.js.
    const worker = new Worker(new URL(import.meta.resolve('#stats-draw-worker')), {
      execArgv: [],
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    worker.on('message', (answer: DrawAnswer) => this.#answered(answer));
    worker.on('error', (error) => this.#lost(worker, error));
    worker.on('exit', (code) => this.#lost(worker, new Error(`the stats drawing thread exited (${code})`)));
    // Idle, the thread never keeps the process alive (a stop or an exit does not wait for it);
    // after the listeners, which would hold it again.
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #answered(answer: DrawAnswer): void {
    const waiting = this.#waiting.get(answer.id);
    this.#waiting.delete(answer.id);
    if ('png' in answer) waiting?.resolve(Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength));
    else waiting?.reject(new Error(answer.error));
    if (this.#waiting.size === 0) {
      this.#worker?.unref();
      this.#idle = setTimeout(() => void this.close(), IDLE_MS);
      this.#idle.unref();
    }
  }

  #lost(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    for (const { reject } of this.#waiting.values()) reject(error);
    this.#waiting.clear();
  }
}
