import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { registerReportDetailPages } from './detail.js';
import { registerImportFormatPages } from './formats.js';
import { registerReportListPages } from './list.js';
import { registerValidationPages } from './validation.js';

/** /console/reports: exports, imports (uploads), their files and line errors, import validations. */
export function registerReportPages(scope: FastifyInstance, deps: Deps): void {
  registerValidationPages(scope, deps);
  registerImportFormatPages(scope, deps);
  registerReportListPages(scope, deps);
  registerReportDetailPages(scope, deps);
}
