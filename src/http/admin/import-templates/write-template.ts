import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { createImportTemplate, updateImportTemplate } from '../../../domain/reports/templates.js';
import { ADMIN_ROUTE_CONFIG, AccountParams, adminResponses } from '../schemas.js';
import { CreateTemplateBody, ImportTemplate, RULES, TAGS, TemplateParams, UpdateTemplateBody } from './schemas.js';

const DUPLICATE = 'the account already has an import template with this name';

export function registerWriteImportTemplate(app: App, deps: Deps) {
  app.post(
    '/admin/accounts/:accountId/import-templates',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Create an import template',
        description: RULES,
        params: AccountParams,
        body: CreateTemplateBody,
        response: adminResponses({ 201: ImportTemplate }, [400, 401, 404, 409], DUPLICATE),
      },
    },
    async (request, reply) => {
      const { accountId } = request.params;
      const template = await withTx(deps.db.db, async (tx) => {
        await getAccount(tx, accountId);
        return createImportTemplate(tx, accountId, request.body, deps.clock.now());
      });
      return reply.code(201).send(template);
    },
  );
  app.put(
    '/admin/accounts/:accountId/import-templates/:templateId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Replace an import template',
        description: `Replaces the name and the columns; the importType stays. Reports already created read the template as it is when they run. ${RULES}`,
        params: TemplateParams,
        body: UpdateTemplateBody,
        response: adminResponses({ 200: ImportTemplate }, [400, 401, 404, 409], DUPLICATE),
      },
    },
    async (request) => {
      const { accountId, templateId } = request.params;
      return withTx(deps.db.db, async (tx) => {
        await getAccount(tx, accountId);
        return updateImportTemplate(tx, accountId, templateId, request.body, deps.clock.now());
      });
    },
  );
}
