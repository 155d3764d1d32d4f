import type { RouteName } from '../api/types.js';
import type { Answer } from './answer.js';
import { jsonAnswer } from './answer.js';
import type { SandboxStore } from './store.js';

export type RouteMatch =
  | { route: 'listVotes' }
  | { route: Exclude<RouteName, 'listVotes'>; param: string }
  | { route: 'unknown'; status: 404 | 405; allow?: string };

/** Names the route from method and path alone, so a request is logged before anything can fail. */
export function matchRoute(method: string, pathname: string): RouteMatch {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const [version, collection, param, ...rest] = path.split('/').slice(1);
  if (version !== 'v1' || rest.length > 0 || param === '') return { route: 'unknown', status: 404 };
  if (collection === 'votes') {
    return onlyGet(method, param === undefined ? { route: 'listVotes' } : { route: 'getVote', param });
  }
  if (collection === 'reviews' && param !== undefined) {
    if (method === 'GET') return { route: 'getReview', param };
    if (method === 'POST') return { route: 'postReply', param };
    return { route: 'unknown', status: 405, allow: 'GET, POST' };
  }
  return { route: 'unknown', status: 404 };
}

function onlyGet(method: string, match: RouteMatch): RouteMatch {
  return method === 'GET' ? match : { route: 'unknown', status: 405, allow: 'GET' };
}

/** The service's answer to an authenticated request. */
export function answerRoute(match: RouteMatch, body: string, store: SandboxStore): Answer {
  if (match.route === 'unknown') {
    const error = match.status === 404 ? 'Unknown Route' : 'Method Not Allowed';
    const answer = jsonAnswer(match.status, { error });
    return match.allow ? { ...answer, headers: { Allow: match.allow } } : answer;
  }
  if (match.route === 'listVotes') {
    return jsonAnswer(200, {
      totalVotes: store.totalVotes,
      monthlyVotes: store.monthlyVotes,
      votes: store.activeVotes(),
    });
  }
  const param = decodeParam(match.param);
  if (param === null) return jsonAnswer(400, { error: 'Malformed path parameter' });
  switch (match.route) {
    case 'getVote': {
      const remaining = store.remainingMs(param);
      return jsonAnswer(200, { voted: remaining !== null, remaining });
    }
    case 'getReview': {
      const review = store.reviewBy(param);
      // Spec gap: a user without a review is "not shown"; a 404 with an {error} body is what a
      // REST service most likely sends, and the client accepts that among the other shapes.
      return review ? jsonAnswer(200, review) : jsonAnswer(404, { error: 'Not Found' });
    }
    case 'postReply':
      return postReply(param, body, store);
  }
}

// Spec gaps: the status codes of the POST outcomes are not shown. 201 for a created reply, 404 for
// "Unknown Review" and 400 for a body the service cannot use are the REST defaults.
function postReply(reviewId: string, body: string, store: SandboxStore): Answer {
  const review = store.reviewById(reviewId);
  if (!review) return jsonAnswer(404, { error: 'Unknown Review' });
  const input = parseJson(body);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return jsonAnswer(400, { error: 'Body must be a JSON object' });
  }
  const { content, pinned = false } = input as { content?: unknown; pinned?: unknown };
  if (typeof content !== 'string' || content.trim() === '') {
    return jsonAnswer(400, { error: 'content must be a non-empty string' });
  }
  if (typeof pinned !== 'boolean') return jsonAnswer(400, { error: 'pinned must be a boolean' });
  return jsonAnswer(201, { id: store.addReply(review, content, pinned).id });
}

function decodeParam(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
