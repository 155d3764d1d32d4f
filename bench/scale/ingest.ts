import { Worker } from 'node:worker_threads';

export interface IngestPlan {
  receiverUrl: string;
  token: string;
  servers: readonly string[];
  /** Offered rates, one step each, lowest first. */
  rates: readonly number[];
  stepMs: number;
  p99UnderMs: number;
  /** Stop after the first step that fails (the ladder goes on until it fails and says where). */
  untilFails?: boolean;
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
  /** The first step that failed, if the ladder reached one. */
  failedAt?: IngestStep;
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
  let failedAt: IngestStep | undefined;
  for (const step of steps)
    if (passed(step, p99UnderMs)) best = { rate: step.achieved, p99: step.p99 };
    else failedAt ??= step;
  return { ...best, accepted: steps.reduce((sum, step) => sum + step.accepted, 0), failedAt };
}

/** Every delivery of the step taken, with 200 p99 under the goal. */
export function passed(step: IngestStep, p99UnderMs: number): boolean {
  return step.p99 < p99UnderMs && step.accepted === step.sent;
}
