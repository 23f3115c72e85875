// npm run client:generate: rewrites packages/client/openapi.json and packages/client/src/schema.ts.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { OPENAPI_FILE, SCHEMA_FILE, renderClientArtifacts } from './client-types.js';

const { openapiJson, schemaTs } = await renderClientArtifacts();
await writeFile(OPENAPI_FILE, openapiJson);
await writeFile(SCHEMA_FILE, schemaTs);
console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)} and ${path.relative(process.cwd(), SCHEMA_FILE)}`);
