import { parentPort, workerData } from 'node:worker_threads';
import { nextSnowflake } from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { percentiles } from '../load.js';
import { ingestResult, passed, type IngestPlan, type IngestStep } from './ingest.js';

const plan = workerData as IngestPlan;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Another worker id than the harness's snowflakes, so a voter id never equals one made there in the same ms.
const OWN_WORKER_BITS = 1n << 17n;
const voterId = () => (BigInt(nextSnowflake()) | OWN_WORKER_BITS).toString();

/** Vote webhooks, open loop, at one rate for one step; every voter is new, so each vote is stored. */
async function step(rate: number): Promise<IngestStep> {
  const sent = (rate * plan.stepMs) / 1000;
  const latencies: number[] = [];
  const sends: Array<Promise<void>> = [];
  const from = performance.now();
  for (let i = 0; i < sent;) {
    const due = Math.min(sent, Math.floor(((performance.now() - from) * rate) / 1000) + 1);
    for (; i < due; i++) {
      const guildId = plan.servers[i % plan.servers.length]!;
      const sentAt = performance.now();
      sends.push(
        // A connection the receiver closed (over WEBHOOK_MAX_CONNECTIONS) is a delivery not accepted.
        deliver(`${plan.receiverUrl}/${guildId}`, plan.token, voteEvent(guildId, voterId())).then(
          (status) => {
            if (status === 200) latencies.push(performance.now() - sentAt);
          },
          () => undefined,
        ),
      );
    }
    await sleep(5);
  }
  await Promise.all(sends);
  const [p99] = percentiles(latencies, [99]);
  return {
    rate,
    sent,
    accepted: latencies.length,
    achieved: (latencies.length * 1000) / (performance.now() - from),
    p99: p99!,
  };
}

const steps: IngestStep[] = [];
for (const rate of plan.rates) {
  const done = await step(rate);
  steps.push(done);
  parentPort!.postMessage({ step: done });
  if (plan.untilFails && !passed(done, plan.p99UnderMs)) break;
}
parentPort!.postMessage({ result: ingestResult(steps, plan.p99UnderMs) });
