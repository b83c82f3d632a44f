import { encode } from 'uqr';
import { describe, expect, it } from 'vitest';
import { qrCodePath } from './qrCodePath';

const ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

/**
 * Paints a path made only of the unit-high rectangles qrCodePath draws (`Mx yhWv1h-Wz`) onto a size × size
 * grid; throws on anything else, or on a rectangle drawn twice or off the grid.
 */
function paint(path: string, size: number): boolean[][] {
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  if (path === '') return grid;
  for (const part of path.split(' M')) {
    const match = /^M?(\d+) (\d+)h(\d+)v1h-(\d+)z$/.exec(part);
    if (match === null) throw new Error(`Not a module run: ${part}`);
    const [x, y, width, back] = match.slice(1).map(Number) as [number, number, number, number];
    if (width !== back || width === 0) throw new Error(`Not a closed run: ${part}`);
    for (let column = x; column < x + width; column++) {
      const row = grid[y];
      if (row === undefined || column >= size) throw new Error(`Off the grid: ${part}`);
      if (row[column]) throw new Error(`Drawn twice: ${part}`);
      row[column] = true;
    }
  }
  return grid;
}

describe('qrCodePath', () => {
  it('draws each run of dark modules in a row as one rectangle', () => {
    expect(
      qrCodePath([
        [true, true, false, true],
        [false, false, false, false],
        [false, true, true, true],
      ]),
    ).toBe('M0 0h2v1h-2z M3 0h1v1h-1z M1 2h3v1h-3z');
  });

  it('draws nothing for an all-light matrix', () => {
    expect(
      qrCodePath([
        [false, false],
        [false, false],
      ]),
    ).toBe('');
  });

  it("covers exactly the dark modules of a wallet address's QR code", () => {
    const qr = encode(ADDRESS, { ecc: 'M', border: 0 });
    const dark = qr.data.flat().filter(Boolean).length;
    // A real code: version 3 (29 × 29) with both kinds of module in plenty.
    expect(qr.size).toBe(29);
    expect(dark).toBeGreaterThan(200);
    expect(dark).toBeLessThan(29 * 29 - 200);

    expect(paint(qrCodePath(qr.data), qr.size)).toEqual(qr.data);
  });
});
