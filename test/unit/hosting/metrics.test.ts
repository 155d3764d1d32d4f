import { describe, expect, it } from '@jest/globals';
import { BotMetrics } from '../../../src/hosting/metrics.js';
import { parsePrometheusText } from '../../support/prometheus-text.js';

const live = { ready: true, inFlight: 2, gatewayPingMs: 42, gatewayConnected: true };

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the bot metrics', () => {
  it('counts interactions by handler and outcome, and failures by cause', async () => {
    const metrics = new BotMetrics();
    metrics.interactionHandled({ interactionId: '1', handler: '/vote', userId: 'u', outcome: 'ok', durationMs: 12 });
    metrics.interactionHandled({ interactionId: '2', handler: '/vote', userId: 'u', outcome: 'ok', durationMs: 30 });
    metrics.interactionHandled({
      interactionId: '3',
      handler: '/review',
      userId: 'u',
      outcome: 'refused',
      durationMs: 1,
      reason: 'circuit_open',
    });
    const text = await metrics.render(live);
    expect(sample(text, 'vote_review_bot_interactions_total{handler="/vote",outcome="ok"}')).toBe(2);
    expect(sample(text, 'vote_review_bot_interactions_total{handler="/review",outcome="refused"}')).toBe(1);
    expect(sample(text, 'vote_review_bot_interaction_failures_total{handler="/review",reason="circuit_open"}')).toBe(1);
    expect(sample(text, 'vote_review_bot_interaction_duration_seconds_count{handler="/vote"}')).toBe(2);
    expect(sample(text, 'vote_review_bot_interaction_duration_seconds_sum{handler="/vote"}')).toBeCloseTo(0.042);
    expect(sample(text, 'vote_review_bot_interaction_duration_seconds_bucket{le="0.025",handler="/vote"}')).toBe(1);
  });

  it("counts the calls the service's rate limit held back: waited, and failed fast", async () => {
    const metrics = new BotMetrics();
    metrics.serviceRateLimited({ outcome: 'waited', waitMs: 800 });
    metrics.serviceRateLimited({ outcome: 'waited', waitMs: 20 });
    metrics.serviceRateLimited({ outcome: 'failed_fast', waitMs: 4_000 });
    const text = await metrics.render(live);
    expect(sample(text, 'vote_review_bot_service_rate_limited_total{outcome="waited"}')).toBe(2);
    expect(sample(text, 'vote_review_bot_service_rate_limited_total{outcome="failed_fast"}')).toBe(1);
  });

  it('counts service attempts by route and status, or by transport error', async () => {
    const metrics = new BotMetrics();
    metrics.serviceAttempt({ route: 'getVote', method: 'GET', attempt: 1, durationMs: 5, status: 200 });
    metrics.serviceAttempt({ route: 'postReply', method: 'POST', attempt: 1, durationMs: 5, error: 'ECONNRESET' });
    metrics.serviceAttempt({
      route: 'getReview',
      method: 'GET',
      attempt: 1,
      durationMs: 5,
      status: 200,
      error: 'timeout',
    });
    metrics.serviceAttempt({
      route: 'getReview',
      method: 'GET',
      attempt: 2,
      durationMs: 5,
      error: 'fetch failed: something odd',
    });
    const text = await metrics.render(live);
    expect(sample(text, 'vote_review_bot_service_attempts_total{route="getVote",result="200"}')).toBe(1);
    expect(sample(text, 'vote_review_bot_service_attempts_total{route="postReply",result="ECONNRESET"}')).toBe(1);
    expect(sample(text, 'vote_review_bot_service_attempts_total{route="getReview",result="timeout"}')).toBe(1);
    expect(sample(text, 'vote_review_bot_service_attempts_total{route="getReview",result="network_error"}')).toBe(1);
    expect(sample(text, 'vote_review_bot_service_attempt_duration_seconds_count{route="getReview"}')).toBe(2);
  });

  it('shows what waits for Discord and what is parked, from the store counts of the scrape', async () => {
    const metrics = new BotMetrics();
    const work = { events: 3, votes: 120, reviews: 7, edits: 1, parkedLanes: 1, parkedPosts: 0 };
    const text = await metrics.render(live, work);
    expect(sample(text, 'vote_review_bot_work_waiting{kind="votes"}')).toBe(120);
    expect(sample(text, 'vote_review_bot_work_waiting{kind="reviews"}')).toBe(7);
    expect(sample(text, 'vote_review_bot_work_waiting{kind="events"}')).toBe(3);
    expect(sample(text, 'vote_review_bot_work_parked{kind="channels"}')).toBe(1);
    expect(sample(text, 'vote_review_bot_work_parked{kind="posts"}')).toBe(0);
  });

  it('times the first accepted response of an interaction once, from when it arrived', async () => {
    let now = 1_000;
    const metrics = new BotMetrics(() => now);
    metrics.interactionReceived('10');
    now += 40;
    metrics.interactionCallback('10', 5, true);
    now += 2_000;
    metrics.interactionCallback('10', 4, false);
    const text = await metrics.render(live);
    expect(sample(text, 'vote_review_bot_interaction_first_response_seconds_count')).toBe(1);
    expect(sample(text, 'vote_review_bot_interaction_first_response_seconds_sum')).toBeCloseTo(0.04);
    expect(sample(text, 'vote_review_bot_interaction_responses_total{type="deferred_reply",result="accepted"}')).toBe(
      1,
    );
    expect(sample(text, 'vote_review_bot_interaction_responses_total{type="reply",result="rejected"}')).toBe(1);
  });

  it('reports the live state, and leaves the gateway ping out while it is unknown', async () => {
    const metrics = new BotMetrics();
    const text = await metrics.render(live);
    expect(sample(text, 'vote_review_bot_ready')).toBe(1);
    expect(sample(text, 'vote_review_bot_interactions_in_flight')).toBe(2);
    expect(sample(text, 'vote_review_bot_gateway_ping_seconds')).toBe(0.042);
    expect(sample(text, 'vote_review_bot_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'vote_review_bot_uptime_seconds')).toBeGreaterThan(0);
    const starting = await metrics.render({ ready: false, inFlight: 0, gatewayPingMs: -1, gatewayConnected: false });
    expect(sample(starting, 'vote_review_bot_ready')).toBe(0);
    expect(sample(starting, 'vote_review_bot_gateway_ping_seconds')).toBeUndefined();
    expect(starting).toContain('# TYPE vote_review_bot_gateway_ping_seconds gauge');
  });

  it('names every family with the prefix and gives each HELP and TYPE', async () => {
    const text = await new BotMetrics().render(live);
    const names = text
      .split('\n')
      .filter((l) => l.startsWith('# TYPE '))
      .map((l) => l.split(' ')[2]);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      expect(name).toMatch(/^vote_review_bot_/);
      expect(text).toContain(`# HELP ${name} `);
    }
  });

  it('renders text a strict parser of the exposition format reads whole, with the process metrics', async () => {
    const metrics = new BotMetrics();
    metrics.interactionHandled({ interactionId: '1', handler: '/vote', userId: 'u', outcome: 'ok', durationMs: 3 });
    const families = parsePrometheusText(await metrics.render(live));
    expect(families.get('vote_review_bot_interactions_total')?.type).toBe('counter');
    expect(families.get('vote_review_bot_interaction_duration_seconds')?.type).toBe('histogram');
    for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_gc_duration_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(families.has(`vote_review_bot_${name}`)).toBe(true);
    }
  });

  it('refuses text that breaks the format, so the test above can fail', () => {
    expect(() => parsePrometheusText('x 1\n')).toThrow(/no declared family/);
    expect(() => parsePrometheusText('# HELP x X.\n# TYPE x gauge\nx{a="1} 1\n')).toThrow(/bad labels|not a sample/);
    expect(() => parsePrometheusText('# HELP x X.\n# TYPE x gauge\nx one\n')).toThrow(/not a number/);
  });
});
