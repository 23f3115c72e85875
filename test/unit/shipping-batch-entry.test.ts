import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runEntry } from '../../src/http/v2/shipping/batch.js';
import { invalidArgument } from '../../src/domain/errors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * runEntry (src/http/v2/shipping/batch.ts), one v2 shipping batch entry in its own transaction: a refusal or
 * an unexpected error fails that entry only, but a lost database fails the call (503 at the edge), never a
 * 200 whose later entries all say "internal error".
 */
describe('v2 shipping batch entries', () => {
  let t: TestApp;
  const logged: unknown[] = [];
  const log = { error: (fields: unknown) => void logged.push(fields) } as unknown as Parameters<typeof runEntry>[1];
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  it('answers a refusal with its message and an unexpected error with the fixed one, logged', async () => {
    assert.deepEqual(await runEntry(t.deps, log, async () => Promise.reject(invalidArgument('no such order'))), { ok: false, errorMessage: 'no such order' });
    const outcome = await runEntry(t.deps, log, async () => Promise.reject(new Error('boom')));
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? '' : outcome.errorMessage, /^internal error applying this entry/);
    assert.equal(logged.length, 1);
  });

  it('throws a lost database on, so the call answers 503', async () => {
    const lost = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    await assert.rejects(runEntry(t.deps, log, async () => Promise.reject(lost)), (error: unknown) => error === lost);
  });
});
