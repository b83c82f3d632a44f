import { describe, expect, it } from 'vitest';
import { batchedLookup } from '../src/db/batchedLookup.js';

/** A table in memory and a look-up over it that records each query's keys. */
function table(rows: Record<string, number>) {
  const queries: string[][] = [];
  const lookup = batchedLookup(
    async (keys: string[]) => {
      queries.push(keys);
      return keys.filter((key) => key in rows).map((key) => ({ key, value: rows[key]! }));
    },
    (row) => row.key,
    4,
  );
  return { queries, lookup };
}

/** Lets the look-ups asked so far run. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedLookup', () => {
  it('runs the look-ups of one turn as one query, each getting its own row or undefined', async () => {
    const { queries, lookup } = table({ a: 1, b: 2 });
    const answers = await Promise.all([lookup('a'), lookup('missing'), lookup('b')]);
    expect(answers).toEqual([{ key: 'a', value: 1 }, undefined, { key: 'b', value: 2 }]);
    expect(queries).toEqual([['a', 'missing', 'b']]);
  });

  it('asks for a key once a query, and answers every caller that asked for it', async () => {
    const { queries, lookup } = table({ a: 1 });
    const answers = await Promise.all([lookup('a'), lookup('a'), lookup('a')]);
    expect(answers).toEqual([
      { key: 'a', value: 1 },
      { key: 'a', value: 1 },
      { key: 'a', value: 1 },
    ]);
    expect(queries).toEqual([['a']]);
  });

  it('keeps nothing: a look-up of a later turn reads again, and sees a change made in between', async () => {
    const rows: Record<string, number> = { a: 1 };
    const { queries, lookup } = table(rows);
    expect(await lookup('a')).toEqual({ key: 'a', value: 1 });
    delete rows.a;
    expect(await lookup('a')).toBeUndefined();
    rows.a = 3;
    expect(await lookup('a')).toEqual({ key: 'a', value: 3 });
    expect(queries).toEqual([['a'], ['a'], ['a']]);
  });

  it('starts a new query past maxBatch keys', async () => {
    const { queries, lookup } = table({ a: 1, f: 6 });
    const answers = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((key) => lookup(key)));
    expect(answers[0]).toEqual({ key: 'a', value: 1 });
    expect(answers[5]).toEqual({ key: 'f', value: 6 });
    expect(queries).toEqual([
      ['a', 'b', 'c', 'd'],
      ['e', 'f'],
    ]);
  });

  it('does not hold a look-up asked while a query is under way: it goes in the next one', async () => {
    const { queries, lookup } = table({ a: 1, b: 2 });
    const first = lookup('a');
    await nextTurn();
    const second = lookup('b');
    expect(await Promise.all([first, second])).toEqual([
      { key: 'a', value: 1 },
      { key: 'b', value: 2 },
    ]);
    expect(queries).toEqual([['a'], ['b']]);
  });

  it('fails every look-up of a query that failed, and the next query runs as usual', async () => {
    let fail = true;
    const lookup = batchedLookup(
      async (keys: string[]) => {
        if (fail) throw new Error('database gone');
        return keys.map((key) => ({ key }));
      },
      (row) => row.key,
    );
    const answers = await Promise.allSettled([lookup('a'), lookup('b')]);
    expect(answers.map((answer) => answer.status)).toEqual(['rejected', 'rejected']);
    expect((answers[0] as PromiseRejectedResult).reason).toEqual(new Error('database gone'));
    fail = false;
    expect(await lookup('a')).toEqual({ key: 'a' });
  });

  it('fails the look-ups of a query that could not even start', async () => {
    const lookup = batchedLookup(
      (_keys: string[]): Promise<Array<{ key: string }>> => {
        throw new Error('no connection');
      },
      (row) => row.key,
    );
    await expect(lookup('a')).rejects.toThrow('no connection');
  });
});
