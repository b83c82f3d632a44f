import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { precompress } from './precompress';

describe('precompress', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dial-precompress-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const script = `export const words = ${JSON.stringify(Array.from({ length: 500 }, (_, i) => `word${i % 37}`))};`;

  it('writes a brotli and a gzip sibling of every text file, each decompressing to the file', async () => {
    mkdirSync(join(dir, 'assets'));
    const files: Record<string, string> = {
      'index.html': '<!doctype html><title>Dial</title>',
      'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'manifest.json': '{"name":"Dial"}',
      'assets/index-abc123.js': script,
      'assets/index-def456.css': 'body{margin:0}'.repeat(40),
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);

    const written = await precompress(dir);

    expect(written).toEqual(Object.keys(files).sort());
    for (const [name, text] of Object.entries(files)) {
      expect(brotliDecompressSync(readFileSync(join(dir, `${name}.br`))).toString()).toBe(text);
      expect(gunzipSync(readFileSync(join(dir, `${name}.gz`))).toString()).toBe(text);
    }
  });

  it('compresses at the highest levels: brotli quality 11, gzip level 9', async () => {
    // Real code (this module's), where the levels make a difference.
    const code = readFileSync(new URL('./precompress.ts', import.meta.url), 'utf8');
    writeFileSync(join(dir, 'app.js'), code);
    await precompress(dir);
    const quality11 = brotliCompressSync(code, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
    expect(readFileSync(join(dir, 'app.js.br')).length).toBe(quality11.length);
    expect(readFileSync(join(dir, 'app.js.gz')).length).toBe(gzipSync(code, { level: 9 }).length);
    expect(readFileSync(join(dir, 'app.js.gz')).length).toBeLessThan(gzipSync(code, { level: 1 }).length);
    expect(readFileSync(join(dir, 'app.js.br')).length).toBeLessThan(
      brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }).length,
    );
  });

  it('leaves files that are compressed already (images, fonts) alone', async () => {
    writeFileSync(join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(join(dir, 'font.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
    expect(await precompress(dir)).toEqual([]);
    for (const name of ['logo.png.br', 'logo.png.gz', 'font.woff2.br', 'font.woff2.gz']) {
      expect(existsSync(join(dir, name))).toBe(false);
    }
  });
});
