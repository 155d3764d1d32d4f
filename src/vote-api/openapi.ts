import { SITE_IDS } from '../lists/index.js';
import { API_BURST, API_REQUESTS_PER_MINUTE } from './rate-limit.js';

/** Most votes one page of GET /votes holds, and how many when `limit` is left out. */
export const PAGE_LIMIT_MAX = 500;
export const PAGE_LIMIT_DEFAULT = 100;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const time = (description: string) => ({ type: 'string', format: 'date-time', description });
const count = (description: string) => ({ type: 'integer', minimum: 0, description });
const snowflake = { type: 'string', pattern: '^[0-9]{17,20}$' };

const LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/Reset' },
};

const json = (schema: object) => ({ 'application/json': { schema } });
const answer = (description: string, schema: object, headers: object = LIMIT_HEADERS) => ({
  description,
  headers,
  content: json(schema),
});

/** The answers every key-checked route may give besides its 200. */
const REFUSALS = {
  '400': answer('A path or query value is malformed; the message says which.', ref('Error')),
  '401': answer('No key, or a key no server has.', ref('Error'), {}),
  '404': answer('No such server for this key: another server, or none.', ref('Error')),
  '429': answer('The key asked too often; try again after Retry-After seconds.', ref('Error'), {
    ...LIMIT_HEADERS,
    'Retry-After': { description: 'Seconds until the key may ask again.', schema: { type: 'integer', minimum: 1 } },
  }),
  // Before the key is known (its store read failed) there is no bucket to tell of.
  '503': answer('The store did not answer in time; try again after Retry-After seconds.', ref('Error'), {
    'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } },
  }),
};

const guildParameter = {
  name: 'guild',
  in: 'path',
  required: true,
  description: 'The server (guild) id the key is bound to.',
  schema: snowflake,
};

/**
 * The vote API's OpenAPI 3.1 document, served at /api/v1/openapi.json: docs/api.md describes the
 * same, and the tests check every answer they get against it.
 */
export const OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'vote-review-bot vote API',
    version: '1.0.0',
    description: `Whether a member is voting, and the server's votes, from the ledger of every list the bot hears. One key per server; ${API_REQUESTS_PER_MINUTE} requests a minute per key, ${API_BURST} at once.`,
  },
  security: [{ bearer: [] }],
  paths: {
    '/api/v1/openapi.json': {
      get: {
        operationId: 'openapi',
        summary: 'This document. No key needed.',
        security: [],
        responses: { '200': { description: 'The OpenAPI 3.1 document.', content: json({ type: 'object' }) } },
      },
    },
    '/api/v1/guilds/{guild}/members/{member}/vote': {
      get: {
        operationId: 'memberVote',
        summary: "A member's running votes on every list, and their counts.",
        parameters: [
          guildParameter,
          { name: 'member', in: 'path', required: true, description: "The member's user id.", schema: snowflake },
        ],
        responses: { '200': answer('The member as the ledger has them.', ref('MemberVote')), ...REFUSALS },
      },
    },
    '/api/v1/guilds/{guild}/votes': {
      get: {
        operationId: 'votes',
        summary: "The server's votes, in the order the ledger took them, a page at a time.",
        parameters: [
          guildParameter,
          {
            name: 'since',
            in: 'query',
            description: 'Only votes cast at or after this time (ISO 8601).',
            schema: { type: 'string', format: 'date-time' },
          },
          {
            name: 'cursor',
            in: 'query',
            description: "A page's cursor: the votes the ledger took after that page.",
            schema: { type: 'string' },
          },
          {
            name: 'limit',
            in: 'query',
            description: `Votes per page, 1 to ${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT}).`,
            schema: { type: 'integer', minimum: 1, maximum: PAGE_LIMIT_MAX },
          },
        ],
        responses: { '200': answer('A page of votes.', ref('VotesPage')), ...REFUSALS },
      },
    },
  },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'A key from /setup api-key create (or API_KEYS).' },
    },
    headers: {
      Limit: { description: 'Requests a minute the key may make.', schema: { type: 'integer', minimum: 1 } },
      Remaining: { description: 'Requests the key may make at once now.', schema: { type: 'integer', minimum: 0 } },
      Reset: {
        description: 'Seconds until the key may again make its whole burst.',
        schema: { type: 'integer', minimum: 0 },
      },
    },
    schemas: {
      Error: {
        type: 'object',
        required: ['error'],
        additionalProperties: false,
        properties: { error: { type: 'string' } },
      },
      ListVote: {
        type: 'object',
        required: ['site', 'voted_at', 'expires_at', 'weight'],
        additionalProperties: false,
        properties: {
          site: { type: 'string', enum: [...SITE_IDS] },
          voted_at: time('When the vote was cast.'),
          expires_at: time('When the vote runs out and the member may vote again.'),
          weight: { type: 'integer', minimum: 1, maximum: 2, description: 'What it counts as (a double: 2).' },
        },
      },
      MemberVote: {
        type: 'object',
        required: ['voting', 'lists', 'month', 'all_time', 'streak'],
        additionalProperties: false,
        properties: {
          voting: { type: 'boolean', description: 'Whether a vote of the member runs now, on any list.' },
          lists: {
            type: 'array',
            items: ref('ListVote'),
            description: 'The running vote on each list, first cast first.',
          },
          month: count('Votes this calendar month (UTC), by weight, on every list.'),
          all_time: count('Votes the bot recorded, by weight, on every list.'),
          streak: count('Vote periods in a row.'),
        },
      },
      LedgerVote: {
        type: 'object',
        required: ['member_id', 'site', 'weight', 'voted_at', 'expires_at'],
        additionalProperties: false,
        properties: {
          member_id: snowflake,
          site: { type: 'string', enum: [...SITE_IDS] },
          weight: { type: 'integer', minimum: 1, maximum: 2 },
          voted_at: time('When the vote was cast.'),
          expires_at: time('When the vote runs out.'),
        },
      },
      VotesPage: {
        type: 'object',
        required: ['data', 'cursor'],
        additionalProperties: false,
        properties: {
          data: { type: 'array', items: ref('LedgerVote') },
          cursor: {
            type: ['string', 'null'],
            description: 'Pass it back for the votes after this page; null when there is no vote yet.',
          },
        },
      },
    },
  },
} as const;
