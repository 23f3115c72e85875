import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.js';
import { formAction } from '../components.js';
import { flash } from '../session.js';

/**
 * formAction for actions that create something: on success the seller goes to what was created (`to`
 * of the result) instead of back; a refusal goes back with its message, exactly as formAction does it.
 */
export async function createAction(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  back: string,
  action: () => Promise<{ message: string; to: string }>,
): Promise<FastifyReply> {
  let result: { message: string; to: string };
  try {
    result = await action();
  } catch (error) {
    return formAction(deps, request, reply, back, '', () => Promise.reject(error));
  }
  flash(deps, request, reply, 'ok', result.message);
  return reply.redirect(result.to, 303);
}
