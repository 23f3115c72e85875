import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase } from '../helpers/app.js';
import type { DbHandle } from '../../src/db/connect.js';
import { argList, argRow, compiledBySize, compiledByShape, compiledStatement, everyColumn, listArgsOf, rowArgsOf } from '../../src/db/compiled.js';
import { withTx } from '../../src/db/tx.js';

interface AccountInsert {
  name: string;
  created_at: string;
}
const ACCOUNT_COLUMNS = everyColumn<AccountInsert>()(['name', 'created_at']);

describe('compiled statements', () => {
  let handle: DbHandle;
  let drop: () => Promise<void>;
  before(async () => ({ handle, drop } = await createTestDatabase()));
  after(async () => {
    await handle.close();
    await drop();
  });

  const insertAccounts = compiledBySize<{ id: number; name: string }, Record<string, unknown>>((db, arg, n) =>
    db
      .insertInto('accounts')
      .values(Array.from({ length: n }, (_, i) => argRow<AccountInsert>(arg, i, ACCOUNT_COLUMNS)))
      .returning(['id', 'name']),
  );
  const byNames = compiledBySize<{ name: string }, Record<string, unknown>>((db, arg, n) =>
    db.selectFrom('accounts').select('name').where('name', 'in', argList<string>(arg, 'n', n)).orderBy('name'),
  );
  const byName = compiledStatement<{ id: number }, { name: string }>((db, arg) => db.selectFrom('accounts').select('id').where('name', '=', arg('name')));

  it('inserts several rows in one statement, inside a transaction, and reads them back by IN lists of any size', async () => {
    const now = new Date().toISOString();
    const rows = [
      { name: 'c-one', created_at: now },
      { name: 'c-two', created_at: now },
      { name: 'c-three', created_at: now },
    ];
    const inserted = await withTx(handle.db, (tx) => insertAccounts.all(tx, rows.length, rowArgsOf(rows, ACCOUNT_COLUMNS)));
    assert.deepEqual(inserted.map((r) => r.name).sort(), ['c-one', 'c-three', 'c-two']);
    for (const names of [['c-two'], ['c-one', 'c-three'], ['c-one', 'c-two', 'c-three', 'c-missing']]) {
      const found = await byNames.all(handle.db, names.length, listArgsOf('n', names));
      assert.deepEqual(found.map((r) => r.name), names.filter((n) => n !== 'c-missing').sort());
    }
    assert.equal((await byName.first(handle.db, { name: 'c-two' }))?.id, inserted.find((r) => r.name === 'c-two')!.id);
    assert.equal(await byName.first(handle.db, { name: 'nobody' }), undefined);
  });

  it('keeps one statement per shape, and refuses to run with an argument missing', async () => {
    const shaped = compiledByShape<{ name: string }, { name?: string; prefix?: string }, 'exact' | 'prefix'>((db, arg, shape) =>
      shape === 'exact' ? db.selectFrom('accounts').select('name').where('name', '=', arg('name')) : db.selectFrom('accounts').select('name').where('name', 'like', arg('prefix')),
    );
    assert.equal((await shaped.all(handle.db, 'exact', { name: 'c-one' })).length, 1);
    assert.equal((await shaped.all(handle.db, 'prefix', { prefix: 'c-%' })).length, 3);
    await assert.rejects(shaped.all(handle.db, 'exact', {}), /no value for argument name/);
  });
});
