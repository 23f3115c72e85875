// `npm run lint`, last step: the OpenAPI document the service serves (built in-process, as the partner
// client's generator builds it), checked by Spectral with the spectral:oas rules in .spectral.yaml. Errors fail
// the lint; warnings are printed. Generated clients depend on the document being valid.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { servedOpenApi } from './client-types.js';

const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
try {
  const file = path.join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(await servedOpenApi(), null, 2));
  const spectral = path.join('node_modules', '.bin', 'spectral');
  const result = spawnSync(spectral, ['lint', file, '--ruleset', '.spectral.yaml', '--fail-severity', 'error'], { stdio: 'inherit' });
  if (result.error) throw result.error;
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
