import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { registerDeleteImportTemplate } from './delete-template.js';
import { registerReadImportTemplate } from './read-template.js';
import { registerWriteImportTemplate } from './write-template.js';

/** The seller's import templates (DESIGN.md operator API; docs/partners/imports-products.md). */
export function registerAdminImportTemplateRoutes(app: App, deps: Deps): void {
  registerWriteImportTemplate(app, deps);
  registerReadImportTemplate(app, deps);
  registerDeleteImportTemplate(app, deps);
}
