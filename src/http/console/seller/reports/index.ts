import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../../deps.js';

/** /console/reports: exports, imports (uploads), their files and line errors, import validations. */
export function registerReportPages(scope: FastifyInstance, deps: Deps): void {
  void scope;
  void deps;
}
