import { ReplyOutcomeUnknownError, ServiceError, ServiceUnavailableError } from './errors.js';

export type Outcome = 'success' | 'failure' | 'neutral';

/**
 * Fails fast after `threshold` consecutive failed calls, for `cooldownMs`; then lets one trial call
 * through (half-open): its success closes the circuit, its failure opens it again. While the
 * service is down this spares it the load, and members an 8-second wait for a known answer.
 * A threshold of 0 disables the breaker.
 */
export class CircuitBreaker {
  private failures = 0;
  private state: 'closed' | 'open' | 'half_open' = 'closed';
  private openUntil = 0;
  private trialInFlight = false;

  constructor(
    private readonly threshold: number,
    private readonly cooldownMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Lets a call start, or throws ServiceUnavailableError('circuit_open'). */
  acquire(): void {
    if (this.state === 'open') {
      const left = this.openUntil - this.now();
      if (left > 0) throw this.openError(left);
      this.state = 'half_open';
    }
    if (this.state === 'half_open') {
      if (this.trialInFlight) throw this.openError(0);
      this.trialInFlight = true;
    }
  }

  /** Records how a call that acquire() let through ended. */
  record(outcome: Outcome): void {
    if (outcome === 'success') {
      this.failures = 0;
      this.state = 'closed';
      this.trialInFlight = false;
    } else if (outcome === 'failure') {
      this.failures += 1;
      if (
        this.state === 'half_open' ||
        (this.state === 'closed' && this.threshold > 0 && this.failures >= this.threshold)
      ) {
        this.state = 'open';
        this.openUntil = this.now() + this.cooldownMs;
        this.trialInFlight = false;
      }
    } else if (this.state === 'half_open') {
      // The trial proved nothing (its caller gave up): let the next call be the trial.
      this.trialInFlight = false;
    }
  }

  private openError(leftMs: number): ServiceUnavailableError {
    const wait = leftMs > 0 ? `for another ${Math.ceil(leftMs / 1000)} s` : 'while a trial call runs';
    return new ServiceUnavailableError(
      'circuit_open',
      `The service failed ${this.threshold} calls in a row; calls are paused ${wait} (circuit open).`,
    );
  }
}

/**
 * What a call's end says about the service: unavailable (retries spent, timeouts, 5xx) is a
 * failure; any other answer (401, no review, a bad body, a refused reply) shows it is up; a call
 * its caller cancelled says nothing.
 */
export function breakerOutcome(error: unknown): Outcome {
  if (error instanceof ServiceUnavailableError) {
    return error.reason === 'timeout' || error.reason === 'retries_exhausted' ? 'failure' : 'neutral';
  }
  if (error instanceof ReplyOutcomeUnknownError) return 'failure';
  return error instanceof ServiceError ? 'success' : 'neutral';
}
