import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseShardIds } from '../../../src/shards/shard-ids.js';
import { ROOT } from '../../../tools/bot-process.js';

const yaml = createRequire(import.meta.url)('js-yaml') as {
  safeLoad(text: string): unknown;
  safeLoadAll(text: string): unknown[];
};
const read = (file: string) => readFileSync(`${ROOT}${file}`, 'utf8');

type Env = Record<string, string | undefined>;

/** Each shard id from 0 to count - 1 in exactly one of the ranges; the problems otherwise. */
function coverage(count: number, ranges: readonly number[][]): string[] {
  const seen = new Map<number, number>();
  for (const ids of ranges) for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
  const problems: string[] = [];
  for (let id = 0; id < count; id++)
    if (seen.get(id) !== 1) problems.push(`shard ${id} run ${seen.get(id) ?? 0} times`);
  for (const id of seen.keys()) if (id >= count) problems.push(`shard ${id} is outside SHARD_COUNT ${count}`);
  return problems;
}

describe('compose.yaml, the scale profile', () => {
  const compose = yaml.safeLoad(read('compose.yaml')) as {
    services: Record<string, { profiles?: string[]; environment?: Env; command?: string[] }>;
  };
  const scale = Object.entries(compose.services).filter(([, service]) => service.profiles?.includes('scale'));
  const bots = scale.filter(([, service]) => service.environment?.SHARD_IDS !== undefined);

  it('runs two bot processes whose shard ranges cover every shard exactly once', () => {
    expect(bots.map(([name]) => name)).toHaveLength(2);
    const counts = new Set(bots.map(([, service]) => Number(service.environment!.SHARD_COUNT)));
    expect(counts.size).toBe(1);
    const ranges = bots.map(([, service]) => parseShardIds(service.environment!.SHARD_IDS!));
    expect(coverage([...counts][0]!, ranges)).toEqual([]);
  });

  it('puts every bot process on PostgreSQL, with one receiver and the database in the profile', () => {
    for (const [, service] of bots) expect(service.environment!.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(scale.filter(([, service]) => service.environment?.ROLE === 'receiver')).toHaveLength(1);
    expect(scale.map(([name]) => name)).toContain('postgres');
  });

  it('sends every bot process to Discord through the one REST proxy in the profile', () => {
    // Straight to Discord, two processes together drew global 429s (test/e2e/scale-out.test.ts).
    const proxy = scale.filter(([, service]) => service.command?.some((part) => part.includes('rest-proxy')));
    expect(proxy.map(([name]) => name)).toEqual(['rest-proxy']);
    for (const [, service] of bots) expect(service.environment!.DISCORD_API_URL).toBe('http://rest-proxy:8080/api');
  });
});

describe('deploy/kubernetes', () => {
  const statefulSet = yaml.safeLoad(read('deploy/kubernetes/statefulset.yaml')) as {
    kind: string;
    spec: {
      replicas: number;
      template: { spec: { containers: Array<{ command: string[]; env: Array<{ name: string; value?: string }> }> } };
    };
  };
  const [container] = statefulSet.spec.template.spec.containers;
  const envOf = (name: string) => container!.env.find((e) => e.name === name)?.value;

  /** The shard ids pod N runs: its own start command run by sh with the pod's hostname, up to the exec. */
  const shardIdsOfPod = (ordinal: number): number[] => {
    const [shell, flag, script] = container!.command;
    const printed = execFileSync(shell!, [flag!, script!.replace(/exec node .*$/, 'printf %s "$SHARD_IDS"')], {
      env: { PATH: process.env.PATH, HOSTNAME: `vote-review-bot-${ordinal}`, SHARDS_PER_POD: envOf('SHARDS_PER_POD') },
      encoding: 'utf8',
    });
    return parseShardIds(printed);
  };

  it('gives each StatefulSet pod the shard range its ordinal picks, covering every shard exactly once', () => {
    expect(statefulSet.kind).toBe('StatefulSet');
    const count = Number(envOf('SHARD_COUNT'));
    const ranges = Array.from({ length: statefulSet.spec.replicas }, (_, ordinal) => shardIdsOfPod(ordinal));
    expect(ranges[0]).toEqual([0, 1, 2, 3]);
    expect(coverage(count, ranges)).toEqual([]);
  });

  it('catches replicas that do not match SHARD_COUNT', () => {
    const ranges = Array.from({ length: statefulSet.spec.replicas + 1 }, (_, ordinal) => shardIdsOfPod(ordinal));
    expect(coverage(Number(envOf('SHARD_COUNT')), ranges)).not.toEqual([]);
  });

  it('runs receivers as a Deployment with ROLE=receiver behind a Service', () => {
    const deployment = yaml.safeLoad(read('deploy/kubernetes/receiver-deployment.yaml')) as {
      kind: string;
      spec: {
        template: {
          metadata: { labels: Record<string, string> };
          spec: { containers: Array<{ env: Array<{ name: string; value?: string }> }> };
        };
      };
    };
    expect(deployment.kind).toBe('Deployment');
    expect(deployment.spec.template.spec.containers[0]!.env).toContainEqual({ name: 'ROLE', value: 'receiver' });
    const services = yaml.safeLoadAll(read('deploy/kubernetes/service.yaml')) as Array<{
      kind: string;
      spec: { selector: Record<string, string> };
    }>;
    const labels = deployment.spec.template.metadata.labels;
    const receiverService = services.find(
      (s) => s.kind === 'Service' && Object.entries(s.spec.selector).every(([k, v]) => labels[k] === v),
    );
    expect(receiverService).toBeDefined();
  });

  it('sends every bot pod to Discord through one REST proxy Deployment and its Service', () => {
    interface Manifest {
      kind: string;
      metadata: { name: string };
      spec: {
        replicas?: number;
        strategy?: { type: string };
        selector: Record<string, string> & { matchLabels?: Record<string, string> };
        ports?: Array<{ port: number; targetPort: string }>;
        template?: {
          metadata: { labels: Record<string, string> };
          spec: {
            containers: Array<{
              command: string[];
              env: Array<{ name: string; value?: string }>;
              ports: Array<{ name: string; containerPort: number }>;
            }>;
          };
        };
      };
    }
    const manifests = yaml.safeLoadAll(read('deploy/kubernetes/rest-proxy.yaml')) as Manifest[];
    const deployment = manifests.find((m) => m.kind === 'Deployment')!;
    const service = manifests.find((m) => m.kind === 'Service')!;
    const proxy = deployment.spec.template!.spec.containers[0]!;
    expect(proxy.command.join(' ')).toContain('dist/src/processes/rest-proxy.js');
    // Two proxies would each spend the whole global budget, during a rollout too.
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.strategy?.type).toBe('Recreate');
    const labels = deployment.spec.template!.metadata.labels;
    expect(Object.entries(service.spec.selector).every(([k, v]) => labels[k] === v)).toBe(true);
    const proxyEnv = (name: string) => proxy.env.find((e) => e.name === name)?.value;
    const servicePort = service.spec.ports!.find((p) => p.targetPort === proxy.ports[0]!.name)!.port;
    expect(proxy.ports[0]!.containerPort).toBe(Number(proxyEnv('REST_PROXY_PORT')));
    expect(proxyEnv('REST_PROXY_HOST')).toBe('0.0.0.0');
    expect(envOf('DISCORD_API_URL')).toBe(`http://${service.metadata.name}:${servicePort}/api`);
  });
});
