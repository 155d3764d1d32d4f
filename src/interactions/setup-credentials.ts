import type { ModalHandler } from '../runtime/context.js';
import { Prefix } from '../core/custom-id.js';
import { saveCredentials } from '../setup/credentials.js';

/** The `/setup credentials` form sent back: Manage Server checked again, as a submit can be forged. */
export const setupCredentials: ModalHandler<string> = {
  kind: 'modal',
  prefix: Prefix.setupCredentials,
  anyServer: true,
  gate: 'manageServer',
  parse: (arg) => (arg === 'v1' ? arg : null),
  async run(interaction, _arg, ctx) {
    await saveCredentials(interaction, ctx);
  },
};
