// The stats picture's own thread (started by stats-renderer.ts): chart.js and the canvas draw here,
// so interactions on the main thread never wait for a picture.
import { parentPort } from 'node:worker_threads';
import { drawStats, type StatsPicture } from './draw-stats.js';

export interface DrawRequest {
  id: number;
  picture: StatsPicture;
}

export type DrawAnswer = { id: number; png: Uint8Array } | { id: number; error: string };

parentPort?.on('message', ({ id, picture }: DrawRequest) => {
  drawStats(picture).then(
    (png) => parentPort?.postMessage({ id, png } satisfies DrawAnswer),
    (error: unknown) =>
      parentPort?.postMessage({
        id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies DrawAnswer),
  );
});
