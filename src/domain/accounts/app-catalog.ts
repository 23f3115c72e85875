import type { Db } from '../../db/tx.js';
import type { AppKind, Scope } from './principal.js';

/** What a seller sees of a registered app before installing it: never its secrets or partner URLs. */
export interface InstallableApp {
  appId: number;
  name: string;
  kind: AppKind;
  scopes: Scope[];
}

/**
 * The platform's registered apps a seller may install, oldest first (keyset on id). Apps are platform-wide
 * (the operator registers them), so there is no account filter; installing is what ties one to an account.
 */
export async function listInstallableApps(db: Db, afterId: number | null, pageSize: number): Promise<{ apps: InstallableApp[]; nextAfterId: number | null }> {
  let query = db.selectFrom('apps').select(['id', 'name', 'kind', 'scopes']);
  if (afterId !== null) query = query.where('id', '>', afterId);
  const rows = await query.orderBy('id').limit(pageSize + 1).execute();
  const page = rows.slice(0, pageSize);
  return {
    apps: page.map((r) => ({ appId: r.id, name: r.name, kind: r.kind as AppKind, scopes: JSON.parse(r.scopes) as Scope[] })),
    nextAfterId: rows.length > pageSize ? page[page.length - 1]!.id : null,
  };
}

/** App names by id, for labelling an account's installations. */
export async function appNames(db: Db, appIds: readonly number[]): Promise<Map<number, string>> {
  if (appIds.length === 0) return new Map();
  const rows = await db.selectFrom('apps').select(['id', 'name']).where('id', 'in', [...new Set(appIds)]).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
