import { expect } from '@jest/globals';
import { answerProblems, type SeenAnswer } from './openapi-check.js';

const DOCUMENT = '/api/v1/openapi.json';

/** An answer of the vote API as a test reads it: status, headers and JSON body. */
export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/**
 * A client of the vote API at `base` that checks every answer it gets against the document the API
 * serves (fetched once, first): a test cannot see an answer the document does not describe.
 */
export function apiClient(base: string) {
  let doc: Parameters<typeof answerProblems>[0] | undefined;
  const seen: SeenAnswer[] = [];
  async function get(pathAndQuery: string, key?: string): Promise<ApiAnswer> {
    if (!doc) {
      const served = await fetch(`${base}${DOCUMENT}`);
      doc = (await served.json()) as typeof doc;
      const answer = { method: 'GET', path: DOCUMENT, status: served.status, headers: served.headers, body: doc };
      seen.push(answer);
      expect(answerProblems(doc!, answer)).toEqual([]);
    }
    const response = await fetch(`${base}${pathAndQuery}`, {
      headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    });
    const body = (await response.json()) as Record<string, unknown>;
    const answer = {
      method: 'GET',
      path: pathAndQuery.split('?')[0]!,
      status: response.status,
      headers: response.headers,
      body,
    };
    seen.push(answer);
    expect(answerProblems(doc!, answer)).toEqual([]);
    return { status: response.status, headers: response.headers, body };
  }
  return {
    get,
    /** How many answers were checked against the document. */
    get checked() {
      return seen.length;
    },
  };
}
