import { Worker } from 'node:worker_threads';

export interface IngestPlan {
  receiverUrl: string;
  token: string;
  servers: readonly string[];
  /** Offered rates, one step each, lowest first. */
  rates: readonly number[];
  stepMs: number;
  p99UnderMs: number;
}

export interface IngestStep {
  rate: number;
  sent: number;
  accepted: number;
  achieved: number;
  p99: number;
}

export interface IngestResult {
  /** The highest achieved rate of a step that passed (every delivery accepted, p99 under the goal); 0 if none did. */
  rate: number;
  p99: number;
  /** Deliveries answered 200 over all steps: the votes the store must end up holding. */
  accepted: number;
}

/**
 * Runs the ingest steps in a thread of their own, as Guilds sends from its own machine: the
 * harness's event loop also serves the Discord stand-in for 8 shards, and a 200 waiting there
 * was counted as the receiver's latency.
 */
export function ingestInWorker(plan: IngestPlan, progress: (step: IngestStep) => void): Promise<IngestResult> {
  const worker = new Worker(new URL('./ingest-worker.js', import.meta.url), { workerData: plan });
  return new Promise<IngestResult>((resolve, reject) => {
    worker.on('message', (message: { step?: IngestStep; result?: IngestResult }) => {
      if (message.step) progress(message.step);
      if (message.result) resolve(message.result);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the ingest sender exited (${code}) before its result`)));
  });
}

/** The figure from the steps: the highest step that passed. */
export function ingestResult(steps: readonly IngestStep[], p99UnderMs: number): IngestResult {
  let best = { rate: 0, p99: Number.NaN };
  for (const step of steps)
    if (step.p99 < p99UnderMs && step.accepted === step.sent) best = { rate: step.achieved, p99: step.p99 };
  return { ...best, accepted: steps.reduce((sum, step) => sum + step.accepted, 0) };
}
