import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleUser } from '../../domain/users/users.js';
import { UTC_DISPLAY } from './format.js';
import type { PageContext } from './layout.js';
import { takeFlash } from './session.js';

/**
 * The frame's context for this request: its user, form token, pending flash message, and the settings money
 * and dates are written in (a seller's account settings, read with the session; UTC for operators).
 */
export function pageContext(request: FastifyRequest, reply: FastifyReply, user: ConsoleUser | null, active?: string): PageContext {
  const settings = (user?.kind === 'SELLER' ? request.consoleSession?.accountSettings : null) ?? UTC_DISPLAY;
  return { user, csrfToken: request.csrfToken, ...(active ? { active } : {}), flash: takeFlash(request, reply), settings };
}

/** Sends a rendered page (JSX renders to a string, or a promise of one for async components). */
export async function sendHtml(reply: FastifyReply, html: string | Promise<string>, status = 200): Promise<FastifyReply> {
  return reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(await html);
}
