import type { FastifyRequest } from 'fastify';

/** What the dashboard takes as a change: every method but a read. */
const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isChange = (request: FastifyRequest): boolean => CHANGES.has(request.method);

/** A form's text fields by name. */
export type Form = Record<string, string | undefined>;

/** A form's text fields; a field sent twice is not one the pages' forms send, and counts as missing. */
export function formOf(request: FastifyRequest): Form {
  const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [name, typeof value === 'string' ? value : undefined]),
  );
}
