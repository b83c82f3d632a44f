import { describe, expect, it } from 'vitest';
import { clearSendDraft, readSendDraft, saveSendDraft } from './sendDraftStore';
import type { SendDraft } from './useSendForm';

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

const draft: SendDraft = {
  mode: 'address',
  countryCode: 'GB',
  phone: '',
  address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  asset: 'usdc',
  amount: '0.1',
};

describe('the kept send draft', () => {
  it('comes back for the user who typed it, on its network', () => {
    const storage = memoryStorage();
    saveSendDraft('user-1', { draft, chainId: 31337 }, storage);
    expect(readSendDraft('user-1', storage)).toEqual({ draft, chainId: 31337 });
  });

  it('is not shown to another user of the tab, and is gone once cleared', () => {
    const storage = memoryStorage();
    saveSendDraft('user-1', { draft, chainId: 31337 }, storage);
    expect(readSendDraft('user-2', storage)).toBeNull();
    clearSendDraft(storage);
    expect(readSendDraft('user-1', storage)).toBeNull();
  });

  it('ignores what it did not write: broken JSON, missing or mistyped fields', () => {
    const storage = memoryStorage();
    for (const value of [
      '{',
      'null',
      JSON.stringify({ userId: 'user-1', chainId: '1', draft }),
      JSON.stringify({ userId: 'user-1', chainId: 1, draft: { ...draft, asset: 'dai' } }),
      JSON.stringify({ userId: 'user-1', chainId: 1, draft: { ...draft, amount: 5 } }),
      JSON.stringify({ userId: 'user-1', chainId: 1 }),
    ]) {
      storage.setItem('dial.send-draft', value);
      expect(readSendDraft('user-1', storage)).toBeNull();
    }
  });

  it('does nothing where the browser refuses storage', () => {
    const refusing = {
      ...memoryStorage(),
      setItem() {
        throw new Error('QuotaExceededError');
      },
    } as Storage;
    expect(() => saveSendDraft('user-1', { draft, chainId: 1 }, refusing)).not.toThrow();
    expect(readSendDraft('user-1', null)).toBeNull();
  });
});
