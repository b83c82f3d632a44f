import { shortenAddress } from '@dial/core';
import { describe, expect, it } from 'vitest';
import { describeRecipient } from './describeRecipient';

const ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

describe('describeRecipient', () => {
  it('masks the number but for its last four digits and adds the shortened address', () => {
    expect(describeRecipient({ address: ADDRESS, phone: '+447400123456' })).toBe(
      `*3456 · ${shortenAddress(ADDRESS)}`,
    );
  });

  it('is the shortened address alone for a send to an address', () => {
    expect(describeRecipient({ address: ADDRESS })).toBe(shortenAddress(ADDRESS));
  });
});
