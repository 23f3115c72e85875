import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { getImportTemplate, listImportTemplates } from '../../../domain/reports/templates.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, adminResponses } from '../schemas.js';
import { ImportTemplate, ImportTemplateList, RULES, TAGS, TemplateParams } from './schemas.js';

export function registerReadImportTemplate(app: App, deps: Deps) {
  app.get(
    '/admin/accounts/:accountId/import-templates',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "List an account's import templates",
        description: `Oldest first. ${RULES}`,
        params: AccountParams,
        response: adminResponses({ 200: ImportTemplateList }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId } = request.params;
      await getAccount(deps.db.db, accountId);
      return { results: await listImportTemplates(deps.db.db, accountId) };
    },
  );
  app.get(
    '/admin/accounts/:accountId/import-templates/:templateId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Read an import template',
        description: RULES,
        params: TemplateParams,
        response: adminResponses({ 200: ImportTemplate }, [400, 401, 404]),
      },
    },
    async (request) => {
      const { accountId, templateId } = request.params;
      await getAccount(deps.db.db, accountId);
      return getImportTemplate(deps.db.db, accountId, templateId);
    },
  );
}
