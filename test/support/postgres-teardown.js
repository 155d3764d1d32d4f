import { SHARED_POSTGRES_ENV, stopSharedPostgres } from '../../tools/shared-postgres.js';

/** Jest's globalTeardown: stops the run's shared PostgreSQL cluster, if a test started one, and removes its folder. */
export default function teardown() {
  return stopSharedPostgres(process.env[SHARED_POSTGRES_ENV]);
}
