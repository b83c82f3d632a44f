import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from './activityApi';
import { appendNew, type FetchPage, loadAtLeast, MAX_PAGE_SIZE } from './pages';

function transfer(id: number): ActivityEntry {
  return {
    id: `t${id}`,
    source: 'dial',
    direction: 'sent',
    blockNumber: null,
    chainId: 31337,
    txHash: `0x${id.toString(16).padStart(64, '0')}`,
    from: '0x0000000000000000000000000000000000000001',
    to: '0x0000000000000000000000000000000000000002',
    asset: 'native',
    amount: '1',
    status: 'pending',
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 1000 - id)).toISOString(),
    counterparty: { phone: null },
  };
}

/** `total` transfers, newest (t0) first, paged by index like the server pages by time. */
function server(total: number) {
  const all = Array.from({ length: total }, (_, index) => transfer(index));
  const requests: { limit: number; cursor: string | null }[] = [];
  const fetchPage: FetchPage = async ({ limit, cursor }) => {
    requests.push({ limit, cursor });
    const start = cursor === null ? 0 : Number(cursor);
    const items = all.slice(start, start + limit);
    const end = start + items.length;
    return { items, nextCursor: end < all.length ? String(end) : null };
  };
  return { fetchPage, requests };
}

describe('appendNew', () => {
  it('adds only the transfers not already listed, in order', () => {
    const merged = appendNew([transfer(1), transfer(2)], [transfer(2), transfer(3), transfer(4)]);
    expect(merged.map((item) => item.id)).toEqual(['t1', 't2', 't3', 't4']);
  });
});

describe('loadAtLeast', () => {
  it('loads one first page when no more than a page was shown', async () => {
    const { fetchPage, requests } = server(25);
    const page = await loadAtLeast(fetchPage, 0, 10);
    expect(page.items).toHaveLength(10);
    expect(page.nextCursor).toBe('10');
    expect(requests).toEqual([{ limit: 10, cursor: null }]);
  });

  it('loads as many as "Show more" had opened, in one request', async () => {
    const { fetchPage, requests } = server(25);
    const page = await loadAtLeast(fetchPage, 11, 10);
    expect(page.items.map((item) => item.id)).toEqual(Array.from({ length: 11 }, (_, index) => `t${index}`));
    expect(page.nextCursor).toBe('11');
    expect(requests).toEqual([{ limit: 11, cursor: null }]);
  });

  it('stops at the end of the list when fewer are left than were shown', async () => {
    const { fetchPage } = server(8);
    const page = await loadAtLeast(fetchPage, 11, 10);
    expect(page.items).toHaveLength(8);
    expect(page.nextCursor).toBeNull();
  });

  it("pages past the server's largest page when more were shown", async () => {
    const { fetchPage, requests } = server(250);
    const page = await loadAtLeast(fetchPage, 130, 10);
    expect(page.items).toHaveLength(130);
    expect(new Set(page.items.map((item) => item.id)).size).toBe(130);
    expect(requests).toEqual([
      { limit: MAX_PAGE_SIZE, cursor: null },
      { limit: 30, cursor: '100' },
    ]);
  });
});
