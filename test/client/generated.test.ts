import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { OPENAPI_FILE, SCHEMA_FILE, renderClientArtifacts } from '../../scripts/client-types.js';

describe('partner client generated files', () => {
  it('match the OpenAPI document the service serves (run `npm run client:generate` when this fails)', async () => {
    const fresh = await renderClientArtifacts();
    // Compared without a line-by-line diff: the files are megabytes; the message says how to fix it.
    assert.ok((await readFile(OPENAPI_FILE, 'utf8')) === fresh.openapiJson, 'packages/client/openapi.json is stale: run npm run client:generate');
    assert.ok((await readFile(SCHEMA_FILE, 'utf8')) === fresh.schemaTs, 'packages/client/src/schema.ts is stale: run npm run client:generate');
  });
});
