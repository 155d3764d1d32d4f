import type { Figures } from './context.js';
import { BURST } from './scenarios/burst.js';
import { LATENCY_RUN, processesAt, SERVICE_LATENCIES_MS } from './scenarios/latency.js';
import { MEMORY_RUN } from './scenarios/memory.js';
import { MANY_SERVERS } from './scenarios/many-servers.js';
import { PROCESSING_RUN } from './scenarios/processing.js';
import { RATE_LIMIT_RUN } from './scenarios/rate-limit.js';
import { BIG_BODIES_RUN } from './scenarios/big-bodies.js';
import { LISTS_RUN } from './scenarios/lists.js';
import { FORWARDING } from './scenarios/forwarding.js';
import { REALTIME } from './scenarios/realtime.js';
import { identifyFloorMs, SCALE, scaleShape } from './scenarios/scale.js';
import { SETUP_STATUS } from './scenarios/setup-status.js';
import { STATS_RENDER } from './scenarios/stats.js';
import { VOTE_API_RUN } from './scenarios/vote-api.js';
import { VOTE_OVER_HTTP, VOTE_PATHS } from './scenarios/vote-over-http.js';

type Unit = 'ms' | 'us' | 'count' | 'per-s' | 'MB' | 'KB' | 'cpu-ms' | 'times';

interface Row {
  id: string;
  label: string;
  unit: Unit;
}

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${ms / 1000} s`);

export function rows(extraLogLevels: readonly string[]): Row[] {
  const latencyProcesses = SERVICE_LATENCIES_MS.reduce((sum, latency) => sum + processesAt(latency), 0);
  const latencyRows = SERVICE_LATENCIES_MS.flatMap((latency): Row[] => [
    ...(['p50', 'p95', 'p99'] as const).map((p): Row => ({
      id: `ack.${p}.${latency}`,
      label: `Ack latency ${p}, service ${seconds(latency)}`,
      unit: 'ms',
    })),
  ]);
  const lateRows = SERVICE_LATENCIES_MS.map((latency): Row => ({
    id: `late.${latency}`,
    label: `Late acks (> 3 s) of ${LATENCY_RUN.count * processesAt(latency)}, service ${seconds(latency)}`,
    unit: 'count',
  }));
  const answeredRows = SERVICE_LATENCIES_MS.map((latency): Row => ({
    id: `answered.${latency}`,
    label: `Members shown their vote (not an error) of ${LATENCY_RUN.count * processesAt(latency)}, service ${seconds(latency)}`,
    unit: 'count',
  }));
  const throughputRows = ['', ...extraLogLevels.map((level) => `.${level}`)].flatMap((suffix): Row[] => {
    const at = suffix === '' ? '' : ` (LOG_LEVEL=${suffix.slice(1)})`;
    return [
      { id: `throughput.offered${suffix}`, label: `Highest offered rate with p99 ack < 1 s${at}`, unit: 'per-s' },
      { id: `throughput.achieved${suffix}`, label: `Achieved rate at that step${at}`, unit: 'per-s' },
    ];
  });
  return [
    ...latencyRows,
    ...lateRows,
    ...answeredRows,
    { id: 'requests.oneMember', label: `Service requests, burst of ${BURST.count} /vote of one member`, unit: 'count' },
    {
      id: 'requests.manyMembers',
      label: `Service requests, burst of ${BURST.count} /vote of different members`,
      unit: 'count',
    },
    ...throughputRows,
    ...voteOverHttpRows(),
    { id: 'processing.p50', label: 'Bot processing p50 (logged ms, cache warm)', unit: 'ms' },
    { id: 'processing.p99', label: 'Bot processing p99 (logged ms, cache warm)', unit: 'ms' },
    {
      id: 'processing.cpu',
      label: `Bot CPU time per interaction (${PROCESSING_RUN.count} /vote, service ~0 ms)`,
      unit: 'cpu-ms',
    },
    { id: 'processing.ackP50', label: 'Ack latency p50, service ~0 ms, cache warm', unit: 'ms' },
    { id: 'processing.ackP99', label: 'Ack latency p99, service ~0 ms, cache warm', unit: 'ms' },
    { id: 'processing.requests', label: `Service requests during those ${PROCESSING_RUN.count} /vote`, unit: 'count' },
    {
      id: 'rss.start',
      label: `Bot RSS at start (1 s after ready, median of the latency runs' ${latencyProcesses} processes)`,
      unit: 'MB',
    },
    { id: 'rss.10k', label: 'Bot RSS after 10k interactions', unit: 'MB' },
    { id: 'rss.100k', label: `Bot RSS after ${MEMORY_RUN.count / 1000}k interactions`, unit: 'MB' },
    { id: 'rss.growth', label: 'Bot RSS growth 10k → 100k', unit: 'MB' },
    {
      id: 'rss.manyServers',
      label: `Bot RSS with ${MANY_SERVERS.servers.toLocaleString('en-US')} configured servers idle (${MANY_SERVERS.idleMs / 1000} s)`,
      unit: 'MB',
    },
    ...setupStatusRows(),
    {
      id: 'ratelimit.violations',
      label: `Rate-limit violations (service allows ${RATE_LIMIT_RUN.limit} per ${RATE_LIMIT_RUN.windowMs / 1000} s; ${RATE_LIMIT_RUN.count} /vote at ${RATE_LIMIT_RUN.rate}/s)`,
      unit: 'count',
    },
    { id: 'ratelimit.shown', label: 'Members shown their vote in that run', unit: 'count' },
    { id: 'ratelimit.late', label: 'Late acks (> 3 s) in that run', unit: 'count' },
    {
      id: 'bodies.othersP99',
      label: `First answer p99 of ${BIG_BODIES_RUN.others} members beside 50 MB, endless and 10 MB bodies`,
      unit: 'ms',
    },
    { id: 'bodies.othersMax', label: 'Slowest first answer of those members', unit: 'ms' },
    { id: 'bodies.late', label: 'Late acks (> 3 s) of those members', unit: 'count' },
    { id: 'bodies.rssPeak', label: 'Bot peak RSS in that run', unit: 'MB' },
    ...realtimeRows(),
    ...listsRows(),
    ...forwardingRows(),
    ...voteApiRows(),
    ...scaleRows(),
    { id: 'stats.p50', label: `/stats picture render p50 (30 days, of ${STATS_RENDER.count})`, unit: 'ms' },
    { id: 'stats.p99', label: `/stats picture render p99 (30 days, of ${STATS_RENDER.count})`, unit: 'ms' },
    { id: 'stats.first', label: '/stats first picture, loading chart.js, canvas and font', unit: 'ms' },
    { id: 'stats.rssLoad', label: 'RSS added by the first /stats picture', unit: 'MB' },
    {
      id: 'stats.rssGrowth',
      label: `RSS growth over ${STATS_RENDER.count} /stats pictures after the first`,
      unit: 'MB',
    },
    {
      id: 'stats.rssCreep',
      label: `RSS growth from picture ${STATS_RENDER.warm} to ${STATS_RENDER.count} (a leak would show here)`,
      unit: 'MB',
    },
    { id: 'stats.burstBefore', label: `RSS before ${STATS_RENDER.burst} /stats pictures at once`, unit: 'MB' },
    { id: 'stats.burstPeak', label: `RSS at its highest during those ${STATS_RENDER.burst}`, unit: 'MB' },
    { id: 'stats.burstAfter', label: `RSS right after those ${STATS_RENDER.burst}`, unit: 'MB' },
    {
      id: 'stats.burstLater',
      label: `RSS ${STATS_RENDER.burstLaterMs / 1000} s after them (the drawing thread ended when idle)`,
      unit: 'MB',
    },
  ];
}

/** Both from the interaction's dispatch on the gateway, stamped by the stand-in. */
const STAMPS = { ack: 'dispatched → deferral', shown: 'dispatched → status lines shown' } as const;

/** `/setup status` in one of the many servers: the deferral, and the edit that shows the status lines. */
function setupStatusRows(): Row[] {
  const runs = [
    ['sequential', `${SETUP_STATUS.sequential} one after another`],
    ['burst', `${SETUP_STATUS.burst} at once`],
  ] as const;
  return runs.flatMap(([run, what]): Row[] => [
    ...(['ack', 'shown'] as const).flatMap((stamp) =>
      (['p50', 'p99'] as const).map((p): Row => ({
        id: `setupStatus.${run}.${stamp}.${p}`,
        label: `/setup status, ${what}: ${STAMPS[stamp]} ${p}`,
        unit: 'ms',
      })),
    ),
    { id: `setupStatus.${run}.setUp`, label: `/setup status, ${what}: showed the server set up`, unit: 'count' },
  ]);
}

/** Webhooks: ours against a naive receiver that posts to Discord before it answers. */
function realtimeRows(): Row[] {
  const { hooks, hookRate, slowDiscordMs, votes, voteRate, announceWithinMs, mirrored, serviceMs } = REALTIME;
  const burst = `${votes.toLocaleString('en-US')} vote webhooks in ${votes / voteRate} s`;
  return [
    {
      id: 'webhook.p99',
      label: `Webhook 200 p99, Discord REST at ${seconds(slowDiscordMs)} (${hooks} reviews, ${hookRate}/s)`,
      unit: 'ms',
    },
    { id: 'webhook.late', label: `Webhooks not answered within Guilds' 5 s, of ${hooks}`, unit: 'count' },
    { id: 'votes.allMs', label: `${burst}: every voter announced after`, unit: 'ms' },
    { id: 'votes.lost', label: `${burst}: voters not announced within ${seconds(announceWithinMs)}`, unit: 'count' },
    { id: 'votes.twice', label: `${burst}: voters announced twice`, unit: 'count' },
    { id: 'votes.429', label: `${burst}: Discord 429s`, unit: 'count' },
    { id: 'mirror.ackP50', label: `/vote of a mirrored voter, service ${seconds(serviceMs)}: ack p50`, unit: 'ms' },
    { id: 'mirror.requests', label: `Service requests for ${mirrored} /vote of mirrored voters`, unit: 'count' },
  ];
}

/** Issue 34: every list's deliveries into one bot. */
function listsRows(): Row[] {
  const { rates, stepMs, p99UnderMs, mixRate, mixMs } = LISTS_RUN;
  const taken = `taken whole with 200 p99 < ${p99UnderMs} ms (steps of ${stepMs / 1000} s, ${rates.join(', ')}/s)`;
  const mix = `a mix of Guilds and the 5 other lists, ${mixRate}/s for ${mixMs / 1000} s`;
  return [
    { id: 'lists.guildsRate', label: `Guilds vote deliveries ${taken}`, unit: 'per-s' },
    { id: 'lists.topggRate', label: `Top.gg signed (HMAC-SHA256) vote deliveries ${taken}`, unit: 'per-s' },
    { id: 'lists.hmacUs', label: "Top.gg signature check per delivery (the site's verify, in-process)", unit: 'us' },
    { id: 'lists.tokenUs', label: 'Guilds token check per delivery (in-process, for comparison)', unit: 'us' },
    { id: 'lists.mixP99', label: `Webhook 200 p99 for ${mix}`, unit: 'ms' },
    { id: 'lists.mixRefused', label: `Deliveries not taken in that mix`, unit: 'count' },
  ];
}

/** Issue 51: votes forwarded to other bots. */
function forwardingRows(): Row[] {
  const { servers, destinations, votes, rate, withinMs } = FORWARDING;
  const at = `${votes} votes at ${rate}/s, ${destinations} destinations on each of ${servers.toLocaleString('en-US')} servers`;
  return [
    { id: 'forward.p50', label: `Delivery → forwarded POST p50 (${at})`, unit: 'ms' },
    { id: 'forward.p99', label: `Delivery → forwarded POST p99 (${at})`, unit: 'ms' },
    { id: 'forward.lost', label: `Forwarded POSTs missing after ${seconds(withinMs)}`, unit: 'count' },
  ];
}

/** Issue 51: the "has voted?" API at a fixed rate, from keep-alive connections. */
function voteApiRows(): Row[] {
  const { rate, seconds: runSeconds, memberShare, pageLimit, keys } = VOTE_API_RUN;
  const mix = `${Math.round(memberShare * 100)}% member lookups, the rest pages of ${pageLimit}`;
  const run = `Vote API at ${rate.toLocaleString('en-US')}/s for ${runSeconds} s (${mix}; ${keys.toLocaleString('en-US')} keys)`;
  return [
    { id: 'voteApi.achieved', label: `${run}: achieved rate of 200s`, unit: 'per-s' },
    ...(['p50', 'p99', 'max'] as const).map((p): Row => ({
      id: `voteApi.${p}`,
      label: `Vote API: answer ${p}, client-side`,
      unit: 'ms',
    })),
    { id: 'voteApi.memberP99', label: 'Vote API: member lookup p99', unit: 'ms' },
    { id: 'voteApi.pageP99', label: `Vote API: page of ${pageLimit} votes p99`, unit: 'ms' },
    { id: 'voteApi.non200', label: 'Vote API: answers other than 200', unit: 'count' },
    { id: 'voteApi.429', label: "Vote API: 429s (keys past their limit: the bench's fault)", unit: 'count' },
    { id: 'voteApi.cpu', label: 'Vote API: bot CPU time per request', unit: 'cpu-ms' },
  ];
}

/** Issue 35: the same /vote over the gateway and over the Interactions Endpoint URL, in `npm start`. */
function voteOverHttpRows(): Row[] {
  const { lowRate, serviceMs } = VOTE_OVER_HTTP;
  const over = { gateway: 'over the gateway', http: 'over HTTP' } as const;
  return VOTE_PATHS.flatMap((path): Row[] => [
    ...(['p50', 'p99'] as const).map((p): Row => ({
      id: `voteHttp.${path}.${p}`,
      label: `/vote ${over[path]}: ack ${p} at ${lowRate.rate}/s, service ${serviceMs} ms`,
      unit: 'ms',
    })),
    {
      id: `voteHttp.${path}.offered`,
      label: `/vote ${over[path]}: highest offered rate with p99 ack < 1 s`,
      unit: 'per-s',
    },
    { id: `voteHttp.${path}.achieved`, label: `/vote ${over[path]}: achieved rate at that step`, unit: 'per-s' },
  ]);
}

/** Issue 19: the many-process deployment on one PostgreSQL. */
function scaleRows(): Row[] {
  const { servers, shards, shardRanges, posts, ingest, pollSeconds } = SCALE;
  const at = `${servers.toLocaleString('en-US')} servers, ${shards} shards in ${shardRanges.length} processes`;
  return [
    { id: 'scale.ready', label: `Scale (${at}): spawn → every server's work started`, unit: 'ms' },
    { id: 'scale.rssBot', label: 'Scale: RSS of the larger bot process, idle', unit: 'MB' },
    { id: 'scale.rssPerServer', label: 'Scale: bot RSS per server it runs', unit: 'KB' },
    {
      id: 'scale.rssPerServerPolled',
      label: `Scale: the same once every server has polled (${pollSeconds} s later)`,
      unit: 'KB',
    },
    { id: 'scale.rssReceiver', label: 'Scale: RSS of the webhook receiver, idle', unit: 'MB' },
    {
      id: 'scale.ingestAloneRate',
      label: `Scale: vote webhooks the receiver process alone takes whole with 200 p99 < ${ingest.p99UnderMs} ms (bots paused; steps from ${ingest.aloneRates[0]}/s until one fails)`,
      unit: 'per-s',
    },
    { id: 'scale.ingestAloneP99', label: 'Scale: webhook 200 p99 at that rate (receiver alone)', unit: 'ms' },
    {
      id: 'scale.ingestRate',
      label: `Scale: vote webhooks accepted with 200 p99 < ${ingest.p99UnderMs} ms beside the bots handling them (steps ${ingest.rates.join(', ')}/s, polls steady)`,
      unit: 'per-s',
    },
    { id: 'scale.ingestP99', label: 'Scale: webhook 200 p99 at that rate', unit: 'ms' },
    {
      id: 'scale.postP99',
      label: `Scale: webhook → post p99 (${posts.count} reviews in as many servers, ${posts.rate}/s, first polls running)`,
      unit: 'ms',
    },
    { id: 'scale.lost', label: 'Scale: accepted webhooks not posted within 30 s', unit: 'count' },
    { id: 'scale.restBusiest', label: 'Scale: Discord REST requests, busiest second, all processes', unit: 'count' },
    { id: 'scale.restSliding', label: 'Scale: Discord REST requests, busiest sliding second', unit: 'count' },
    { id: 'scale.global429', label: 'Scale: Discord global 429s', unit: 'count' },
    {
      id: 'scale.pollMean',
      label: `Scale: polls (service list requests) per second over one ${pollSeconds} s interval`,
      unit: 'per-s',
    },
    { id: 'scale.pollRatio', label: 'Scale: busiest second of those ÷ their mean', unit: 'times' },
    { id: 'scale.recovered', label: "Scale: SIGKILL of one bot → its shards' servers answer again", unit: 'ms' },
    { id: 'scale.othersMissed', label: "Scale: other process's servers unanswered meanwhile", unit: 'count' },
  ];
}

function format(value: number | undefined, unit: Unit): string {
  if (value === undefined) return 'n/a';
  if (Number.isNaN(value)) return 'error';
  if (value === Infinity) return 'unanswered';
  switch (unit) {
    case 'ms':
      return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ms`;
    case 'us':
      return `${value.toFixed(1)} µs`;
    case 'count':
      return value.toFixed(0);
    case 'per-s':
      return `${value.toFixed(0)}/s`;
    case 'MB':
      return `${value.toFixed(1)} MB`;
    case 'KB':
      return `${value.toFixed(1)} KB`;
    case 'cpu-ms':
      return `${value.toFixed(3)} ms`;
    case 'times':
      return `${value.toFixed(2)}×`;
  }
}

function ratio(ours: number | undefined, baseline: number | undefined): string {
  if (
    ours === undefined ||
    baseline === undefined ||
    !Number.isFinite(ours) ||
    !Number.isFinite(baseline) ||
    baseline === 0
  )
    return '—';
  const r = ours / baseline;
  return `${r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(2) : r.toPrecision(2)}×`;
}

/** One markdown table: rows = figures, columns = our bot | baseline | ratio (ours ÷ baseline). */
export function renderTable(ours: Figures, baseline: Figures, extraLogLevels: readonly string[]): string {
  const body = rows(extraLogLevels).map((row) => [
    row.label,
    format(ours[row.id], row.unit),
    format(baseline[row.id], row.unit),
    ratio(ours[row.id], baseline[row.id]),
  ]);
  const header = ['figure', 'our bot', 'baseline', 'ratio (ours ÷ baseline)'];
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

export interface Target {
  text: string;
  met: boolean;
  figure: string;
}

/** Ours ÷ baseline in the same run; NaN where either is missing. */
const sameRunRatio = (ours: Figures, baseline: Figures, id: string) =>
  (ours[id] ?? Number.NaN) / (baseline[id] ?? Number.NaN);

/** Issue 18's goals: the hot path costs less than the naive bot's, in the same run. */
export function ratioTargets(ours: Figures, baseline: Figures): Target[] {
  const goal = (text: string, id: string, met: (r: number) => boolean): Target => {
    const r = sameRunRatio(ours, baseline, id);
    const shown = (v: number | undefined) => (v === undefined ? 'n/a' : String(Number(v.toPrecision(4))));
    return { text, met: met(r), figure: `${r.toFixed(2)}× (${shown(ours[id])} ÷ ${shown(baseline[id])})` };
  };
  return [
    goal('highest offered rate with p99 ack < 1 s ≥ 1.5× the baseline', 'throughput.offered', (r) => r >= 1.5),
    goal('CPU per interaction ≤ 0.6× the baseline', 'processing.cpu', (r) => r <= 0.6),
    goal('ack p99 at a 20 ms service ≤ 1.0× the baseline', 'ack.p99.20', (r) => r <= 1),
    goal('RSS at start ≤ 1.0× the baseline', 'rss.start', (r) => r <= 1),
    goal('RSS after 10k interactions ≤ 0.8× the baseline', 'rss.10k', (r) => r <= 0.8),
    {
      ...goal('RSS after 100k interactions ≤ 150 MB and ≤ 0.6× the baseline', 'rss.100k', (r) => r <= 0.6),
      met: sameRunRatio(ours, baseline, 'rss.100k') <= 0.6 && (ours['rss.100k'] ?? Infinity) <= 150,
    },
  ];
}

export function targets(ours: Figures): Target[] {
  const late = SERVICE_LATENCIES_MS.map((latency) => ours[`late.${latency}`]);
  return [
    {
      text: '0 late acknowledgements at every service latency',
      met: late.every((n) => n === 0),
      figure: SERVICE_LATENCIES_MS.map((latency, i) => `${seconds(latency)}: ${late[i] ?? 'n/a'}`).join(', '),
    },
    {
      text: 'bot processing p50 ≤ 2 ms',
      met: (ours['processing.p50'] ?? Infinity) <= 2,
      figure: `p50 ${ours['processing.p50'] ?? 'n/a'} ms (p99 ${ours['processing.p99'] ?? 'n/a'} ms)`,
    },
    {
      text: '500 concurrent identical checks → 1 service request',
      met: ours['requests.oneMember'] === 1,
      figure: `${ours['requests.oneMember'] ?? 'n/a'} requests`,
    },
    {
      text: '≥ 1,000 interactions/s per process',
      met: (ours['throughput.achieved'] ?? 0) >= 1000,
      figure: `${(ours['throughput.achieved'] ?? 0).toFixed(0)}/s achieved at ${ours['throughput.offered'] ?? 0}/s offered with p99 < 1 s`,
    },
    {
      text: '0 rate-limit violations against a service allowing 10 requests per 5 s',
      met: ours['ratelimit.violations'] === 0,
      figure: `${ours['ratelimit.violations'] ?? 'n/a'} violations, ${ours['ratelimit.late'] ?? 'n/a'} late`,
    },
    {
      text: 'beside 50 MB, endless and 10 MB bodies: up, every other first answer < 3 s, RSS < 300 MB',
      met:
        (ours['bodies.othersMax'] ?? Infinity) < 3000 &&
        ours['bodies.late'] === 0 &&
        (ours['bodies.rssPeak'] ?? Infinity) < 300,
      figure: `slowest ${(ours['bodies.othersMax'] ?? Number.NaN).toFixed(0)} ms, peak RSS ${(ours['bodies.rssPeak'] ?? Number.NaN).toFixed(1)} MB`,
    },
    {
      text: 'webhook 200 p99 ≤ 50 ms while Discord answers in 2 s',
      met: (ours['webhook.p99'] ?? Infinity) <= 50,
      figure: `p99 ${(ours['webhook.p99'] ?? Number.NaN).toFixed(1)} ms`,
    },
    {
      text: 'a forwarded vote leaves within 1 s p99 of its delivery (5 destinations on 1,000 servers), none missing',
      met: (ours['forward.p99'] ?? Infinity) <= 1000 && ours['forward.lost'] === 0,
      figure: `p99 ${(ours['forward.p99'] ?? Number.NaN).toFixed(1)} ms, ${ours['forward.lost'] ?? 'n/a'} missing`,
    },
    {
      text: '1,000 vote webhooks in 10 s: all announced within 60 s, 0 lost, 0 twice, 0 Discord 429s',
      met:
        (ours['votes.allMs'] ?? Infinity) <= 60_000 &&
        ours['votes.lost'] === 0 &&
        ours['votes.twice'] === 0 &&
        ours['votes.429'] === 0,
      figure: `after ${(ours['votes.allMs'] ?? Number.NaN).toFixed(0)} ms; lost ${ours['votes.lost'] ?? 'n/a'}, twice ${ours['votes.twice'] ?? 'n/a'}, 429s ${ours['votes.429'] ?? 'n/a'}`,
    },
    {
      text: '/vote of a mirrored voter with the service at 2 s: ack p50 ≤ 5 ms, 0 service requests',
      met: (ours['mirror.ackP50'] ?? Infinity) <= 5 && ours['mirror.requests'] === 0,
      figure: `p50 ${(ours['mirror.ackP50'] ?? Number.NaN).toFixed(1)} ms, ${ours['mirror.requests'] ?? 'n/a'} requests`,
    },
    {
      text: 'RSS growth < 10 MB from 10k to 100k interactions',
      met: (ours['rss.growth'] ?? Infinity) < 10,
      figure: `${(ours['rss.growth'] ?? Number.NaN).toFixed(1)} MB`,
    },
    {
      text: 'scale: Discord REST never above 50 requests in a second across all processes, 0 global 429s',
      met: (ours['scale.restBusiest'] ?? Infinity) <= 50 && ours['scale.global429'] === 0,
      figure: `busiest second ${ours['scale.restBusiest'] ?? 'n/a'} (sliding ${ours['scale.restSliding'] ?? 'n/a'}), ${ours['scale.global429'] ?? 'n/a'} global 429s`,
    },
    {
      text: 'scale: webhook → post p99 ≤ 2 s (300 reviews in as many servers, first polls running)',
      met: (ours['scale.postP99'] ?? Infinity) <= 2_000 && ours['scale.lost'] === 0,
      figure: `p99 ${(ours['scale.postP99'] ?? Number.NaN).toFixed(0)} ms, ${ours['scale.lost'] ?? 'n/a'} not posted`,
    },
    {
      text: 'scale: the receiver process alone takes ≥ 1,000 vote webhooks/s whole with 200 p99 < 50 ms',
      met: (ours['scale.ingestAloneRate'] ?? 0) >= 990 && (ours['scale.ingestAloneP99'] ?? Infinity) < 50,
      figure: `${(ours['scale.ingestAloneRate'] ?? Number.NaN).toFixed(0)}/s at p99 ${(ours['scale.ingestAloneP99'] ?? Number.NaN).toFixed(1)} ms`,
    },
    {
      text: 'scale: bot RSS ≤ 32 KB per server it runs',
      met: (ours['scale.rssPerServer'] ?? Infinity) <= 32,
      figure: `${(ours['scale.rssPerServer'] ?? Number.NaN).toFixed(1)} KB`,
    },
    {
      text: `scale: every server's work started within 5 s of the identify floor ((${SCALE.shards} ÷ ${SCALE.maxConcurrency} − 1) × 5 s)`,
      met: (ours['scale.ready'] ?? Infinity) <= identifyFloorMs(scaleShape()) + 5_000,
      figure: `${((ours['scale.ready'] ?? Number.NaN) / 1000).toFixed(1)} s (floor ${identifyFloorMs(scaleShape()) / 1000} s)`,
    },
    {
      text: 'scale: polls evenly spread, the busiest second at most 1.5× the mean',
      met: (ours['scale.pollRatio'] ?? Infinity) <= 1.5,
      figure: `${(ours['scale.pollRatio'] ?? Number.NaN).toFixed(2)}× (mean ${(ours['scale.pollMean'] ?? Number.NaN).toFixed(0)}/s)`,
    },
    {
      text: `vote API: ${VOTE_API_RUN.rate.toLocaleString('en-US')}/s at p99 < ${VOTE_API_RUN.p99UnderMs} ms`,
      // Within 1% of the rate offered, every answer a 200.
      met:
        (ours['voteApi.achieved'] ?? 0) >= VOTE_API_RUN.rate * 0.99 &&
        (ours['voteApi.p99'] ?? Infinity) < VOTE_API_RUN.p99UnderMs &&
        ours['voteApi.non200'] === 0,
      figure: `${(ours['voteApi.achieved'] ?? Number.NaN).toFixed(0)}/s at p99 ${(ours['voteApi.p99'] ?? Number.NaN).toFixed(1)} ms, ${ours['voteApi.non200'] ?? 'n/a'} not 200`,
    },
    {
      text: `/stats picture: render p99 < 1 s, RSS growth < 10 MB from picture ${STATS_RENDER.warm} to ${STATS_RENDER.count}`,
      met: (ours['stats.p99'] ?? Infinity) < 1000 && (ours['stats.rssCreep'] ?? Infinity) < 10,
      figure: `p99 ${(ours['stats.p99'] ?? Number.NaN).toFixed(0)} ms, ${(ours['stats.rssCreep'] ?? Number.NaN).toFixed(1)} MB`,
    },
  ];
}
