import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';
import { registerReportDetailPages } from './detail.js';
import { registerReportListPages } from './list.js';

/** /console/reports: exports, imports (uploads), their files and line errors, import validations. */
export function registerReportPages(scope: FastifyInstance, deps: Deps): void {
  registerReportListPages(scope, deps);
  registerReportDetailPages(scope, deps);
}
