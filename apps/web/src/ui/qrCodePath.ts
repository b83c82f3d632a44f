/**
 * An SVG path (`d`) that fills exactly the dark modules of a QR code's module matrix (`true` is dark), one
 * unit per module, row by row: each run of dark modules in a row is one rectangle, so the path stays short
 * and the code is drawn without inline styles or injected markup.
 *
 * @example
 * qrCodePath([[true, true, false, true]]); // 'M0 0h2v1h-2z M3 0h1v1h-1z'
 */
export function qrCodePath(modules: readonly (readonly boolean[])[]): string {
  const runs: string[] = [];
  modules.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (row[x]) x++;
      const width = x - start;
      runs.push(`M${start} ${y}h${width}v1h-${width}z`);
    }
  });
  return runs.join(' ');
}
