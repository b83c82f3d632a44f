import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rowReader, statementCache } from '../src/db/createDatabase.js';

/**
 * The hot path's reads on SQLite (`preparedQuery` through `directReader`) make their row objects themselves
 * from better-sqlite3's raw rows: the rows must be exactly the ones better-sqlite3 itself gives.
 */
let sqlite: SqliteDatabase.Database;
beforeEach(() => {
  sqlite = new SqliteDatabase(':memory:');
  sqlite.exec(`
    create table things (id text primary key, count integer, ratio real, note text, data blob);
    insert into things values ('a', 1, 0.5, null, x'00ff'), ('b', 2, 1.25, 'two', null), ('c', 3, null, 'three', x'');
  `);
});
afterEach(() => sqlite.close());

describe('the SQLite row reader', () => {
  it('gives the rows better-sqlite3 gives: the same columns, names, order and values', () => {
    const read = rowReader(sqlite);
    const queries: Array<[string, unknown[]]> = [
      ['select * from things order by id', []],
      ['select id as thing, count * 2 as doubled, note from things where count >= ? order by id desc', [2]],
      ['select id, (select count(*) from things) as total, null as empty from things where id = ?', ['b']],
      // The same name twice: the last column's value, as better-sqlite3 has it.
      ['select id as name, note as name from things where id = ?', ['c']],
      // Names that need quoting in the row maker's code, and one that would set a literal's prototype.
      [`select id as "a""b\\c", count as "x: values[0] }", note as "__proto__" from things order by id`, []],
      ['select id as constructor, count as toString from things where id = ?', ['a']],
      ['select id from things where id = ?', ['none']],
    ];
    for (const [sql, parameters] of queries) {
      const rows = read(sql, parameters);
      expect(rows).toEqual(sqlite.prepare(sql).all(parameters));
      // Twice: the second run uses the statement and column names kept from the first.
      expect(read(sql, parameters)).toEqual(rows);
    }
    expect(read('select data from things where id = ?', ['a'])).toEqual([{ data: Buffer.from([0, 255]) }]);
  });

  it('reads only the first row when asked for it, the row better-sqlite3 gets', () => {
    const read = rowReader(sqlite);
    const sql = 'select id, count, note from things where count >= ? order by id';
    expect(read(sql, [2], true)).toEqual([sqlite.prepare(sql).get(2)]);
    expect(read(sql, [9], true)).toEqual([]);
    // It stops at that row: here the second row's value cannot be computed (an integer overflow), and reading
    // them all fails on it.
    const overflow =
      "select id, case when id = 'b' then abs(-9223372036854775808) else 0 end as n from things order by id";
    expect(read(overflow, [], true)).toEqual([{ id: 'a', n: 0 }]);
    expect(() => read(overflow, [])).toThrow(/integer overflow/);
  });

  it('runs nothing that returns no rows, and says so', () => {
    const read = rowReader(sqlite);
    expect(read("insert into things (id) values ('d')", [])).toBeUndefined();
    expect(sqlite.prepare('select count(*) as n from things').get()).toEqual({ n: 3 });
  });

  it('follows a statement whose columns changed with the schema', () => {
    const read = rowReader(sqlite);
    const sql = 'select * from things where id = ?';
    expect(Object.keys(read(sql, ['a'])![0]!)).toEqual(['id', 'count', 'ratio', 'note', 'data']);
    sqlite.exec("alter table things add column label text default 'new'");
    expect(read(sql, ['a'])).toEqual(sqlite.prepare(sql).all('a'));
    expect(read(sql, ['a'])![0]).toMatchObject({ id: 'a', label: 'new' });
  });
});

describe('the SQLite statement cache', () => {
  it('prepares each SQL once and drops the least recently used beyond its size', () => {
    const prepare = statementCache(sqlite, 2);
    const a = prepare('select 1');
    const b = prepare('select 2');
    expect(prepare('select 1')).toBe(a);
    // Full: the third drops `select 2`, used less recently than `select 1`.
    const c = prepare('select 3');
    expect(prepare('select 1')).toBe(a);
    expect(prepare('select 3')).toBe(c);
    const bAgain = prepare('select 2');
    expect(bAgain).not.toBe(b);
    expect(bAgain.pluck().get()).toBe(2);
    // That dropped `select 1` (`select 3` was used after it).
    expect(prepare('select 3')).toBe(c);
    expect(prepare('select 1')).not.toBe(a);
  });

  it('drops nothing for SQL that does not prepare', () => {
    const prepare = statementCache(sqlite, 1);
    const a = prepare('select 1');
    expect(() => prepare('select from nowhere')).toThrow();
    expect(prepare('select 1')).toBe(a);
  });
});
