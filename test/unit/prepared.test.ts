import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase } from '../helpers/app.js';
import type { DbHandle } from '../../src/db/connect.js';
import { prepareQuery } from '../../src/db/prepared.js';
import { withTx } from '../../src/db/tx.js';

describe('prepared read path', () => {
  let handle: DbHandle;
  let drop: () => Promise<void>;
  before(async () => {
    ({ handle, drop } = await createTestDatabase());
    const now = new Date().toISOString();
    await handle.db.insertInto('accounts').values([{ name: 'a', created_at: now }, { name: 'b', created_at: now }]).execute();
  });
  after(async () => {
    await handle.close();
    await drop();
  });

  it('binds named arguments and keeps literal parameters in place', async () => {
    const q = prepareQuery<{ id: number; name: string }, { name: string }>(handle, (arg) =>
      handle.db.selectFrom('accounts').select(['id', 'name']).where('name', '=', arg('name')).where('id', '>', 0),
    );
    assert.deepEqual((await q.first({ name: 'b' }))?.name, 'b');
    assert.equal(await q.first({ name: 'zzz' }), undefined);
    // Second run reuses the statement and sees the same data.
    assert.equal((await q.all({ name: 'a' })).length, 1);
  });

  it('reads committed data only, also while a transaction is open', async () => {
    const q = prepareQuery<{ n: number }, { name: string }>(handle, (arg) =>
      handle.db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).where('name', '=', arg('name')),
    );
    let seenInside = -1;
    await withTx(handle.db, async (tx) => {
      await tx.insertInto('accounts').values({ name: 'c', created_at: new Date().toISOString() }).execute();
      // Started inside the transaction but must not see its uncommitted row; on SQLite it waits for it.
      const pending = q.first({ name: 'c' }).then((r) => (seenInside = Number(r?.n)));
      if (handle.dialect === 'postgres') await pending;
      else assert.equal(seenInside, -1);
    });
    if (handle.dialect === 'postgres') assert.equal(seenInside, 0);
    assert.equal(Number((await q.first({ name: 'c' }))?.n), 1);
  });
});
