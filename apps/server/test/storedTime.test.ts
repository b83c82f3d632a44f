import { describe, expect, it } from 'vitest';
import { storedTime } from '../src/db/storedTime.js';

/** A random integer in [min, max]. */
function between(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

describe('storedTime', () => {
  it('reads what toISOString writes, as Date.parse does', () => {
    for (let run = 0; run < 20_000; run++) {
      // Any millisecond from year 100 to 9999.
      const time = between(-59_011_459_200_000, 253_402_300_799_999);
      const text = new Date(time).toISOString();
      expect(storedTime(text)).toBe(time);
    }
    expect(storedTime('2026-11-24T22:28:16.000Z')).toBe(Date.UTC(2026, 10, 24, 22, 28, 16));
  });

  it('gives what Date.parse gives for fields in and out of their bounds', () => {
    for (let run = 0; run < 20_000; run++) {
      const text = `${pad(between(0, 9999), 4)}-${pad(between(0, 13), 2)}-${pad(between(0, 32), 2)}T${pad(between(0, 25), 2)}:${pad(between(0, 61), 2)}:${pad(between(0, 61), 2)}.${pad(between(0, 999), 3)}Z`;
      expect([text, storedTime(text)]).toEqual([text, Date.parse(text)]);
    }
  });

  it('leaves every other form to Date.parse', () => {
    const texts = [
      '2026-02-30T00:00:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '2026-01-01T24:00:00.000Z',
      '0099-01-01T00:00:00.000Z',
      '0000-01-01T00:00:00.000Z',
      '+002026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:00.000z',
      '2026-01-01T00:00:00.000+01:00',
      '2026-01-01 00:00:00.000Z',
      '2026-01-01T00:00:00,000Z',
      '２026-01-01T00:00:00.000Z',
      '2026-0a-01T00:00:00.000Z',
      '2026-01-01T00:00:0-.000Z',
      '-026-01-01T00:00:00.000Z',
      '2026-01-01',
      'Tue, 24 Nov 2026 22:28:16 GMT',
      '',
      'not a time at all, 24 ch',
    ];
    for (const text of texts) expect([text, storedTime(text)]).toEqual([text, Date.parse(text)]);
  });
});
