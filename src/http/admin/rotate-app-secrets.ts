import { Type } from '@sinclair/typebox';
import type { App } from '../types.js';
import type { Deps } from '../../deps.js';
import { withTx } from '../../db/tx.js';
import {
  DEFAULT_ROTATION_OVERLAP_SECONDS,
  MAX_ROTATION_OVERLAP_SECONDS,
  rotateAppSecrets,
} from '../../domain/accounts/apps.js';
import { Timestamp } from '../schemas/common.js';
import { ADMIN_ROUTE_CONFIG, AppParams, Secrets, TAGS, adminResponses } from './schemas.js';

export const RotateAppSecretsBody = Type.Object(
  {
    overlapSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_ROTATION_OVERLAP_SECONDS,
        default: DEFAULT_ROTATION_OVERLAP_SECONDS,
        description: 'how long the replaced client secret and signing secret keep working',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ overlapSeconds: 86400 }] },
);

const Rotated = Type.Object(
  { appId: Type.Integer(), ...Secrets, previousSecretsValidUntil: Timestamp },
  {
    examples: [
      {
        appId: 4,
        clientId: '9f2c4e1a0b7d3c5e8f10',
        clientSecret: '0a7e…64 hex…',
        callbackSigningSecret: '77c2…64 hex…',
        previousSecretsValidUntil: '2026-11-22T22:13:08.123Z',
      },
    ],
  },
);

export function registerRotateAppSecrets(app: App, deps: Deps) {
  app.post(
    '/admin/apps/:appId/rotate-secrets',
    {
      config: ADMIN_ROUTE_CONFIG,
      schema: {
        tags: TAGS,
        summary: "Rotate an app's client secret and callback signing secret",
        description:
          'The client id stays. The replaced secrets keep working for `overlapSeconds` (default one day); rotating ' +
          'again ends the earlier overlap at once, since only one previous generation is kept. The body may be omitted.',
        params: AppParams,
        body: RotateAppSecretsBody,
        response: adminResponses({ 200: Rotated }, [400, 401, 404, 409], 'the app was rotated concurrently; try again'),
      },
      // `curl -X POST` with no body at all means "use the defaults", as the description promises.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request, reply) => {
      const overlap = request.body?.overlapSeconds ?? DEFAULT_ROTATION_OVERLAP_SECONDS;
      const rotated = await withTx(deps.db.db, (tx) =>
        rotateAppSecrets(tx, deps.signer, request.params.appId, overlap, deps.clock.now()),
      );
      return reply.header('Cache-Control', 'no-store').send(rotated);
    },
  );
}
