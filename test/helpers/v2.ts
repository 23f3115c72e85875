import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';

/** A v2 error body (google.rpc.Status, resolutions §0). */
export interface V2ErrorBody {
  code: number;
  message: string;
  details: { '@type'?: string; fieldViolations?: { field: string; description?: string }[] }[];
}

/** Asserts a v2 error: the HTTP status, the rpc code, details present, and the message when a pattern is given. */
export function assertV2Error(res: LightMyRequestResponse, status: number, code: number, pattern?: RegExp): V2ErrorBody {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json() as V2ErrorBody;
  assert.equal(body.code, code);
  assert.ok(Array.isArray(body.details));
  if (pattern) assert.match(body.message, pattern);
  return body;
}

/** The fields a validation error names (BadRequest fieldViolations). */
export function violationFields(body: V2ErrorBody): string[] {
  return body.details.flatMap((d) => d.fieldViolations ?? []).map((v) => v.field);
}
