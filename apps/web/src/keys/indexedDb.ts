/** A few promise helpers over IndexedDB: just what the device-share store needs. */

/** Opens (and if needed creates or upgrades) a database. */
export function openDatabase(
  name: string,
  version: number,
  upgrade: (database: IDBDatabase, oldVersion: number) => void,
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(name, version);
    } catch (error) {
      // Some privacy modes have no IndexedDB at all.
      reject(error);
      return;
    }
    request.onupgradeneeded = (event) => upgrade(request.result, event.oldVersion);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error(`IndexedDB database ${name} is blocked by another tab`));
  });
}

/**
 * The result of a request. Awaiting it inside a transaction keeps the transaction alive, as long as nothing
 * but IndexedDB requests is awaited before the transaction's last request.
 */
export function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Resolves when a transaction has committed; rejects when it fails or is aborted. */
export function transactionDone(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () =>
      reject(transaction.error ?? new DOMException('Transaction aborted', 'AbortError'));
  });
}
