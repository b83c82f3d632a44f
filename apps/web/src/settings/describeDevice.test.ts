import { describe, expect, it } from 'vitest';
import { describeDeviceUse } from './describeDevice';
import { formatMoment } from './describeMethod';

describe('describeDeviceUse', () => {
  it('says how the device came to open the wallet, when, and when it was last used', () => {
    const enrolledAt = '2026-11-27T09:30:00.000Z';
    const lastUsedAt = '2026-11-27T18:05:00.000Z';
    const when = `${formatMoment(enrolledAt, 'en-GB')} · last used ${formatMoment(lastUsedAt, 'en-GB')}`;
    expect(describeDeviceUse({ how: 'linked', enrolledAt, lastUsedAt }, 'en-GB')).toBe(
      `Added from another device ${when}`,
    );
    expect(describeDeviceUse({ how: 'created', enrolledAt, lastUsedAt }, 'en-GB')).toBe(
      `Created your wallet ${when}`,
    );
    expect(describeDeviceUse({ how: 'recovered', enrolledAt, lastUsedAt }, 'en-GB')).toMatch(
      /^Added by recovery /,
    );
  });
});
