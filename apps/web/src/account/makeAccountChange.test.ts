import { describe, expect, it } from 'vitest';
import { isPendingAnswer } from './makeAccountChange';

describe('isPendingAnswer', () => {
  it("tells a change route's 202 answer from its 200 answers", () => {
    const pending = {
      id: 'c',
      action: 'remove-method',
      status: 'pending',
      appliesAt: '2026-11-26T09:30:00.000Z',
    };
    expect(isPendingAnswer({ pending })).toBe(true);
    expect(isPendingAnswer({ ok: true })).toBe(false);
    expect(isPendingAnswer({ ended: 0 })).toBe(false);
    expect(isPendingAnswer({ method: { id: 'm', kind: 'email' } })).toBe(false);
    expect(isPendingAnswer(true)).toBe(false);
    expect(isPendingAnswer(null)).toBe(false);
  });
});
