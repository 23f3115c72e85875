import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { withStatementCache } from '../../src/db/statement-cache.js';

describe('SQLite statement cache', () => {
  it('prepares a SQL text once, keeps the most recently used texts and drops the oldest beyond its size', () => {
    const sqlite = new SQLite(':memory:');
    let prepared = 0;
    const counting = new Proxy(sqlite, {
      get(target, key) {
        if (key === 'prepare') return (sql: string) => (prepared++, target.prepare(sql));
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const db = withStatementCache(counting, 2);
    const a = db.prepare('select 1 as v');
    assert.equal(db.prepare('select 1 as v'), a, 'same text, same statement');
    assert.deepEqual(a.all([]), [{ v: 1 }]);
    db.prepare('select 2 as v');
    db.prepare('select 1 as v'); // most recent again
    db.prepare('select 3 as v'); // evicts "select 2"
    assert.equal(prepared, 3);
    db.prepare('select 1 as v');
    assert.equal(prepared, 3, '"select 1" stayed');
    db.prepare('select 2 as v');
    assert.equal(prepared, 4, '"select 2" was evicted and is prepared again');
    db.close();
  });

  it('a cached statement sees schema changes (SQLite re-prepares it)', () => {
    const db = withStatementCache(new SQLite(':memory:'));
    db.prepare('create table t (a integer)').run([]);
    db.prepare('insert into t (a) values (?)').run([1]);
    assert.deepEqual(db.prepare('select * from t').all([]), [{ a: 1 }]);
    db.prepare('alter table t add column b integer').run([]);
    assert.deepEqual(db.prepare('select * from t').all([]), [{ a: 1, b: null }]);
    db.close();
  });
});
