// The service client's public surface. Nothing under src/api imports discord.js.
export { createServiceClient } from './client.js';
export { defaultHeaderPrefix, parseBaseUrl } from './base-url.js';
export { isSnowflake, parseReviewId, SNOWFLAKE, REPLY_MIN_LENGTH, REPLY_MAX_LENGTH } from './validate-input.js';
export { DEFAULT_CLIENT_OPTIONS } from './options.js';
export { parseRetryAfter } from './retry-after.js';
export {
  ServiceError,
  InvalidInputError,
  UnauthorizedError,
  ReviewNotFoundError,
  ServiceUnavailableError,
  InvalidResponseError,
  ReplyOutcomeUnknownError,
  RateLimitedError,
  ReplyRefusedError,
} from './errors.js';
export type {
  VoteStatus,
  VoteEntry,
  VoteList,
  Review,
  Reply,
  RouteName,
  AttemptInfo,
  ServiceClientOptions,
  ServiceClient,
  ConnectionCheck,
  CallOptions,
  ReplyInput,
} from './types.js';
export type { RateLimitEvent } from './types.js';
// The wire readers, for `npm run doctor`, which checks a live service's answers against them.
export { readVoteList, readVoteStatus, readReviewBody, isNoReview, describeIssues } from './schemas.js';
export type { Issue, Read, Reader } from './schemas.js';
