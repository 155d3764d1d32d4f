import type { FastifyInstance } from 'fastify';

/** No inline script or style anywhere: the pages load /static/dashboard.css and .js alone. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Every answer, pages and errors alike, with the headers that keep it from being framed or sniffed. */
export function securityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    // Pages show a member's servers: never kept by a shared cache or the back button of another user.
    // A route that chose its own (the stats picture: `private`, for this browser only) keeps it.
    if (!request.url.startsWith('/static/') && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    return payload;
  });
}
