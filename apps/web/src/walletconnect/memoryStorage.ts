import type { SignClientTypes } from '@walletconnect/types';

type KeyValueStorage = NonNullable<SignClientTypes.Options['storage']>;

/**
 * The WalletConnect client's storage, in memory: a connection lives as long as the page (a sign-in needs
 * nothing more), leaves nothing in IndexedDB or localStorage, and a new attempt never restores an old
 * pairing. A reload starts a new connection.
 */
export class MemoryStorage implements KeyValueStorage {
  private readonly items = new Map<string, unknown>();

  async getKeys(): Promise<string[]> {
    return [...this.items.keys()];
  }

  async getEntries<T = unknown>(): Promise<[string, T][]> {
    return [...this.items.entries()] as [string, T][];
  }

  async getItem<T = unknown>(key: string): Promise<T | undefined> {
    return this.items.get(key) as T | undefined;
  }

  async setItem<T = unknown>(key: string, value: T): Promise<void> {
    this.items.set(key, value);
  }

  async removeItem(key: string): Promise<void> {
    this.items.delete(key);
  }
}
