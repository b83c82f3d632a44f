import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/** The files worth compressing: text. Images and fonts are compressed already. */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a `.br` (brotli, quality 11) and a `.gz` (gzip, level 9) beside every compressible file under
 * `dir`, so the server sends each file compressed without compressing anything per request
 * (apps/server/src/http/serveWebApp.ts picks the sibling by `Accept-Encoding`). Both are written even when
 * one is not smaller than the file: `npm run size` requires them, and the server sends whichever the browser
 * asks for.
 *
 * @returns the files compressed, relative to `dir`.
 * @example await precompress('apps/web/dist') // ['index.html', 'assets/index-BUYLYld_.js', …]
 */
export async function precompress(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
  // The zlib functions run on libuv's thread pool: all files at once use every core.
  await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipAsync(content, { level: 9 }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    }),
  );
  return files.map((file) => file.slice(dir.length + 1)).sort();
}

/** The Vite plugin: {@link precompress} on the build's output folder once everything is written. */
export function precompressPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'dial:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      const files = await precompress(outDir);
      config.logger.info(`precompressed ${files.length} files (.br, .gz) in ${config.build.outDir}`);
    },
  };
}
