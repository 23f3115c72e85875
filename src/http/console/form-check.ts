import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyError } from 'fastify';
import { toAppError } from '../plugins/errors.js';
import { createValidatorCompiler } from '../validation.js';

/**
 * Console forms are checked against the SAME TypeBox schemas as the API bodies they stand for, with the same
 * validator, so a limit (a name's length, a quantity's range) is written once. A failure is the API's
 * INVALID_ARGUMENT AppError with its field violations, which formAction shows as a flash message.
 */
type Check = (data: unknown) => boolean;
const compile = createValidatorCompiler();
const compiled = new WeakMap<TSchema, Check & { errors?: unknown }>();

export function checkForm<S extends TSchema>(schema: S, value: unknown): Static<S> {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = compile({ schema, method: 'POST', url: '/console', httpPart: 'body' }) as unknown as Check & { errors?: unknown };
    compiled.set(schema, validate);
  }
  if (validate(value)) return value as Static<S>;
  const error = Object.assign(new Error('invalid form'), { validation: validate.errors ?? [], validationContext: 'body' }) as unknown as FastifyError;
  throw toAppError(error).appError;
}

/**
 * A form's text as the JSON body would carry it: "" is no value (HTML sends empty inputs), digits become
 * an integer; anything else stays text so the schema names the field and what it expects.
 */
export function formInt(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?\d{1,15}$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** Optional text: "" is no value. */
export function formText(text: string): string | undefined {
  return text.trim() === '' ? undefined : text;
}

/** A checkbox: present means true. */
export function formBool(text: string): boolean {
  return text !== '';
}
