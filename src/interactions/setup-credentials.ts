import type { ModalHandler } from '../bot/handlers.js';
import { Prefix } from '../core/custom-id.js';
import { saveCredentials } from '../setup/credentials.js';
import { requireManageServer } from '../setup/manage-server.js';

/** The `/setup credentials` form sent back: Manage Server checked again, as a submit can be forged. */
export const setupCredentials: ModalHandler<string> = {
  kind: 'modal',
  prefix: Prefix.setupCredentials,
  anyServer: true,
  parse: (arg) => (arg === 'v1' ? arg : null),
  async run(interaction, _arg, ctx) {
    requireManageServer(interaction);
    await saveCredentials(interaction, ctx);
  },
};
