/** Where the lines go: any logger with pino's (fields, line) calls. */
interface LineLogger {
  warn(fields: object, line: string): void;
  info(fields: object, line: string): void;
}

/**
 * One warn line when something starts failing and one info line when it works again, however many
 * tries fail in between: a line per retry would bury everything else for as long as the outage lasts.
 */
export class OutageLines {
  #failing = false;

  constructor(
    private readonly logger: LineLogger,
    private readonly lines: { down: string; back: string },
  ) {}

  failed(fields: object): void {
    if (!this.#failing) this.logger.warn(fields, this.lines.down);
    this.#failing = true;
  }

  worked(): void {
    if (this.#failing) this.logger.info({}, this.lines.back);
    this.#failing = false;
  }
}
