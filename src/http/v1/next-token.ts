import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * Route-level preValidation hook of the v1 list routes: "a nextToken query parameter overrides all other
 * parameters" (document 4.9, resolutions §1/§7), valid or not. The client GETs the nextToken URL as is,
 * and some clients append their first-page parameters again; those must not turn the next page into a
 * 400. So with a non-empty nextToken the query is cut down to it before the schema validates, and the
 * other parameters are validated only on a first page.
 */
export function nextTokenOverridesQuery(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const { nextToken } = request.query as Record<string, unknown>;
  if (typeof nextToken === 'string' && nextToken !== '') request.query = { nextToken };
  done();
}
