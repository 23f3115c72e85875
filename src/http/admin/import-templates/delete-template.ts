import { Type } from '@sinclair/typebox';
import type { App } from '../../types.js';
import type { Deps } from '../../../deps.js';
import { withTx } from '../../../db/tx.js';
import { getAccount } from '../../../domain/accounts/accounts.js';
import { deleteImportTemplate } from '../../../domain/reports/templates.js';
import { ADMIN_ROUTE_CONFIG, adminResponses } from '../schemas.js';
import { TAGS, TemplateParams } from './schemas.js';

export function registerDeleteImportTemplate(app: App, deps: Deps) {
  app.delete(
    '/admin/accounts/:accountId/import-templates/:templateId',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: 'Delete an import template',
        description:
          'Reports already created with it keep their templateId; one that has not run yet then fails with a message saying ' +
          'the template no longer exists.',
        params: TemplateParams,
        response: adminResponses({ 204: Type.Null({ description: 'deleted' }) }, [400, 401, 404]),
      },
    },
    async (request, reply) => {
      const { accountId, templateId } = request.params;
      await withTx(deps.db.db, async (tx) => {
        await getAccount(tx, accountId);
        await deleteImportTemplate(tx, accountId, templateId);
      });
      return reply.code(204).send();
    },
  );
}
