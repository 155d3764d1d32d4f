import { describeDatabase, StoreError } from '../store/index.js';
import { inspectStore } from '../store/inspect.js';
import { fail, pass, skip, type Check } from './check.js';
import { unmakeableReason } from './store-folder.js';

/** DATABASE_URL: the store opens, takes a write, and its schema is this build's (or the start will migrate it). */
export const storeCheck: Check = {
  name: 'store (DATABASE_URL)',
  async run({ config }) {
    if (!config) return skip('the configuration does not parse.');
    const where = describeDatabase(config.database);
    try {
      const { fresh, version, latest } = await inspectStore(config.database);
      if (fresh) {
        const cannot = config.database.kind === 'sqlite' ? unmakeableReason(config.database.file) : undefined;
        if (cannot !== undefined)
          return fail(
            `${where} is not made yet, and the bot could not make it: ${cannot}.`,
            "set DATABASE_URL to a file in a folder the bot's user may write in, or make that folder and give the user write access.",
          );
        return pass(`${where} is not made yet; the bot makes it (schema ${latest}) at its first start.`);
      }
      if (version > latest)
        return fail(
          `${where} has schema ${version}, newer than this build's ${latest}: a newer version of the bot wrote it.`,
          'run that newer version, or put back a backup made before it ran.',
        );
      const schema =
        version === latest
          ? `schema ${version} is current`
          : `schema ${version}; the next start migrates it to ${latest}`;
      return pass(`${where} opens and takes writes; ${schema}.`);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      // The start's own message: it names DATABASE_URL, the cause and what to change.
      return fail(error.message, 'as that says, then run npm run doctor again.');
    }
  },
};
