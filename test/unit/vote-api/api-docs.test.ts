import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { ROOT } from '../../../tools/bot-process.js';
import { OPENAPI_DOCUMENT } from '../../../src/vote-api/openapi.js';
import { schemaProblems } from '../../support/openapi-check.js';

// docs/api.md describes the document /api/v1/openapi.json serves: each route, field and status in
// the one is named in the other, and the examples the page shows are answers the document accepts.

const page = readFileSync(`${ROOT}docs/api.md`, 'utf8');
const doc = OPENAPI_DOCUMENT as unknown as Parameters<typeof schemaProblems>[0];
const schemas = OPENAPI_DOCUMENT.components.schemas;
const ref = (name: keyof typeof schemas) => ({ $ref: `#/components/schemas/${name}` });

/** The page's JSON examples, in order. */
const examples = [...page.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as unknown);

describe('docs/api.md and the OpenAPI document', () => {
  it('name the same routes, each with its method', () => {
    for (const path of Object.keys(OPENAPI_DOCUMENT.paths)) expect(page).toContain(`GET ${path}`);
  });

  it('name every field of every answer and every status a route may give', () => {
    for (const schema of Object.values(schemas))
      for (const field of Object.keys(schema.properties)) expect(page).toContain(`\`${field}\``);
    const statuses = new Set(Object.values(OPENAPI_DOCUMENT.paths).flatMap((path) => Object.keys(path.get.responses)));
    for (const status of statuses) if (status !== '200') expect(page).toMatch(new RegExp(`^\\| ${status} +\\|`, 'm'));
  });

  it("show examples the document accepts: a member's vote, then a page of votes", () => {
    expect(examples).toHaveLength(2);
    expect(schemaProblems(doc, ref('MemberVote'), examples[0])).toEqual([]);
    expect(schemaProblems(doc, ref('VotesPage'), examples[1])).toEqual([]);
  });

  it('would see an example the document refuses', () => {
    const wrong = { ...(examples[0] as object), voting: 'yes', extra: 1 };
    expect(schemaProblems(doc, ref('MemberVote'), wrong)).toEqual([
      '$.voting: string, not boolean',
      '$: extra is not in the schema',
    ]);
    expect(schemaProblems(doc, ref('VotesPage'), { data: [{ member_id: 'bob' }], cursor: 3 })).toEqual([
      '$.data[0]: site is missing',
      '$.data[0]: weight is missing',
      '$.data[0]: voted_at is missing',
      '$.data[0]: expires_at is missing',
      '$.data[0].member_id: "bob" does not match ^[0-9]{17,20}$',
      '$.cursor: integer, not string or null',
    ]);
  });

  it('declare the limit headers on every answer to a known key, and Retry-After on a 429', () => {
    const responses = OPENAPI_DOCUMENT.paths['/api/v1/guilds/{guild}/votes'].get.responses;
    for (const status of ['200', '400', '404', '429'] as const)
      expect(Object.keys(responses[status].headers)).toEqual(
        expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
      );
    expect(Object.keys(responses['429'].headers)).toContain('Retry-After');
    expect(Object.keys(responses['401'].headers)).toEqual([]);
  });
});
