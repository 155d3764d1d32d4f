// The service client's public surface. Nothing under src/api imports discord.js.
export { createServiceClient } from './client.js';
export { parseBaseUrl, isLoopbackHost } from './base-url.js';
export { parseRetryAfter } from './retry-after.js';
export { checkUserId, checkReviewId, checkReplyInput, REPLY_MAX_LENGTH } from './validate-input.js';
export { DEFAULT_CLIENT_OPTIONS, MAX_CACHE_ENTRIES } from './options.js';
export {
  ServiceError,
  InvalidInputError,
  UnauthorizedError,
  ReviewNotFoundError,
  ServiceUnavailableError,
  InvalidResponseError,
  ReplyOutcomeUnknownError,
} from './errors.js';
export type { UnavailableReason } from './errors.js';
export type {
  VoteStatus,
  VoteEntry,
  VoteList,
  Review,
  ReplyInput,
  Reply,
  CallOptions,
  RouteName,
  AttemptInfo,
  ServiceClientOptions,
  ServiceClient,
} from './types.js';
