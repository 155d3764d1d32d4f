import type { ButtonHandler } from '../runtime/context.js';
import { updateInTime } from '../bot/respond.js';
import { Prefix } from '../core/custom-id.js';
import { translatorFor } from '../i18n/index.js';
import { changeAnswer, commandTarget } from '../setup/change.js';
import { applyReset, RESET_CONFIRM } from '../setup/reset.js';
import { commandActor } from '../bot/actor.js';

/** The confirm button of `/setup reset`: Manage Server is its gate, checked again on the click. */
export const setupReset: ButtonHandler<string> = {
  kind: 'button',
  prefix: Prefix.setupReset,
  anyServer: true,
  gate: 'manageServer',
  parse: (arg) => (arg === RESET_CONFIRM ? arg : null),
  async run(interaction, _arg, ctx) {
    const i18n = translatorFor(interaction.locale);
    const reset = applyReset(ctx, commandTarget(interaction), commandActor(interaction));
    await updateInTime(
      interaction,
      reset.then((result) => changeAnswer(result, i18n)),
    );
  },
};
