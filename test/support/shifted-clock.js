// Loaded into a bot process with `node --import` (NODE_OPTIONS): the process's clock starts at
// SHIFTED_CLOCK_START (an ISO time) and runs on at the real pace, so an e2e test can start the
// bot seconds before a month's turn and watch what it does when the month turns. Timers are real:
// a wait the bot computes from this clock lasts as long as it says.
const start = Date.parse(process.env.SHIFTED_CLOCK_START ?? '');
if (Number.isFinite(start)) {
  const RealDate = Date;
  const offset = start - RealDate.now();
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate;
}
