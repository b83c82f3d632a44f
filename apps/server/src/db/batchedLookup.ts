/**
 * Look-ups by key that arrive in the same turn of the event loop, run together as one query: each caller
 * gets the row of its own key (or `undefined`) read by that query, which starts after every one of them
 * arrived. Nothing is kept once the query has answered: it is not a cache, and a row changed before a
 * look-up arrived is always read as changed. The same key asked twice in one turn is asked once.
 *
 * For a database server, where each query costs a round trip and the server's own work (PostgreSQL); on
 * SQLite a query is a function call, and batching buys nothing.
 *
 * @param run - Reads the rows of these keys (distinct, at most `maxBatch`) in one query.
 * @param keyOf - The key of a row `run` returned.
 * @param maxBatch - At most this many keys a query; more arriving in one turn make more queries.
 */
export function batchedLookup<Key, Row>(
  run: (keys: Key[]) => Promise<readonly Row[]>,
  keyOf: (row: Row) => Key,
  maxBatch = 100,
): (key: Key) => Promise<Row | undefined> {
  let pending: Map<Key, Array<Waiter<Row>>> | null = null;

  const flush = (batch: Map<Key, Array<Waiter<Row>>>) => {
    if (pending === batch) pending = null;
    const fail = (error: unknown) => {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    };
    let query: Promise<readonly Row[]>;
    try {
      query = run([...batch.keys()]);
    } catch (error) {
      fail(error);
      return;
    }
    query
      .then((rows) => {
        const byKey = new Map<Key, Row>();
        for (const row of rows) byKey.set(keyOf(row), row);
        for (const [key, waiters] of batch) {
          const row = byKey.get(key);
          for (const waiter of waiters) waiter.resolve(row);
        }
      })
      .catch(fail);
  };

  return (key) =>
    new Promise<Row | undefined>((resolve, reject) => {
      let batch = pending;
      if (batch === null) {
        const created = new Map<Key, Array<Waiter<Row>>>();
        pending = batch = created;
        // After the requests read in this turn (the poll phase) have asked, before the next turn reads more.
        setImmediate(() => {
          if (pending === created) flush(created);
        });
      }
      const waiters = batch.get(key);
      if (waiters === undefined) batch.set(key, [{ resolve, reject }]);
      else waiters.push({ resolve, reject });
      if (batch.size >= maxBatch) flush(batch);
    });
}

interface Waiter<Row> {
  resolve: (row: Row | undefined) => void;
  reject: (error: unknown) => void;
}
