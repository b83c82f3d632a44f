import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildChanged, planBuilds } from './buildChanged.mjs';

/**
 * A monorepo in a temporary folder: `core` (no dependencies), `web` (depends on core), `tool` (no build
 * script). A "build" copies `src/` into `dist/index.js`, and records that it ran.
 */
describe('building only the workspaces that changed', () => {
  let root;
  let stampFile;
  let built;

  const write = (path, text) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const run = async (_root, workspace) => {
    built.push(workspace.name);
    const source = readFileSync(join(root, workspace.dir, 'src', 'index.ts'), 'utf8');
    write(`${workspace.dir}/dist/index.js`, `// built\n${source}`);
  };
  const start = () => buildChanged(root, { stampFile, run, log: () => {} });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'dial-build-changed-'));
    stampFile = join(root, 'node_modules', '.cache', 'dial-builds.json');
    built = [];
    write(
      'package.json',
      JSON.stringify({ name: 'repo', workspaces: ['packages/core', 'apps/web', 'tool'] }),
    );
    write('package-lock.json', '{"lockfileVersion":3}');
    write('tsconfig.base.json', '{}');
    write('packages/core/package.json', JSON.stringify({ name: '@x/core', scripts: { build: 'tsc' } }));
    write('packages/core/src/index.ts', 'export const one = 1;');
    write('packages/core/src/index.test.ts', 'test');
    write('packages/core/test/helper.ts', 'helper');
    write(
      'apps/web/package.json',
      JSON.stringify({
        name: '@x/web',
        scripts: { build: 'vite build' },
        dependencies: { '@x/core': '1.0.0', react: '19.0.0' },
      }),
    );
    write('apps/web/src/index.ts', 'import { one } from "@x/core";');
    write('apps/web/index.html', '<!doctype html>');
    write('tool/package.json', JSON.stringify({ name: '@x/tool' }));
    write('tool/src/index.ts', 'tool');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds every workspace with a build script on the first start, dependencies first', async () => {
    expect(await start()).toEqual(['@x/core', '@x/web']);
    expect(built).toEqual(['@x/core', '@x/web']);
  });

  it('builds nothing on a second start with nothing changed', async () => {
    await start();
    built = [];
    expect(await start()).toEqual([]);
    expect(built).toEqual([]);
    expect(planBuilds(root, stampFile)).toEqual([]);
  });

  it('builds a changed workspace and the workspaces that depend on it, not the others', async () => {
    await start();
    write('packages/core/src/index.ts', 'export const one = 2;');
    expect(planBuilds(root, stampFile).map(({ workspace, reason }) => [workspace.name, reason])).toEqual([
      ['@x/core', 'inputs changed'],
      ['@x/web', 'inputs changed'],
    ]);
    expect(await start()).toEqual(['@x/core', '@x/web']);

    write('apps/web/index.html', '<!doctype html><title>x</title>');
    expect(await start()).toEqual(['@x/web']);
  });

  it('builds a workspace when a file is added to it or removed from it', async () => {
    await start();
    write('apps/web/src/extra.ts', 'export {};');
    expect(await start()).toEqual(['@x/web']);
    rmSync(join(root, 'apps/web/src/extra.ts'));
    expect(await start()).toEqual(['@x/web']);
  });

  it('builds everything when the lockfile or the shared TypeScript settings change', async () => {
    await start();
    write('package-lock.json', '{"lockfileVersion":3,"packages":{}}');
    expect(await start()).toEqual(['@x/core', '@x/web']);
    write('tsconfig.base.json', '{"compilerOptions":{}}');
    expect(await start()).toEqual(['@x/core', '@x/web']);
  });

  it('goes by content, not by time: a file touched but unchanged builds nothing', async () => {
    await start();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'packages/core/src/index.ts'), later, later);
    expect(await start()).toEqual([]);
  });

  it('ignores tests, dist and node_modules of a workspace', async () => {
    await start();
    write('packages/core/src/index.test.ts', 'another test');
    write('packages/core/test/helper.ts', 'another helper');
    write('packages/core/node_modules/dep/index.js', 'dep');
    write('apps/web/node_modules/.vite/cache.json', '{}');
    expect(await start()).toEqual([]);
  });

  it('builds a workspace again when its output is gone or is not what its last build left', async () => {
    await start();
    rmSync(join(root, 'apps/web/dist'), { recursive: true });
    expect(planBuilds(root, stampFile).map(({ workspace, reason }) => [workspace.name, reason])).toEqual([
      ['@x/web', 'output changed'],
    ]);
    expect(await start()).toEqual(['@x/web']);

    // Another build (`npm run build` of another checkout) wrote dist/ since.
    write('packages/core/dist/index.js', '// built from other sources');
    expect(await start()).toEqual(['@x/core']);
  });

  it('builds everything again without its stamps (a fresh clone, `npm ci`)', async () => {
    await start();
    rmSync(join(root, 'node_modules'), { recursive: true });
    expect(await start()).toEqual(['@x/core', '@x/web']);
  });

  it('builds everything when asked to (`npm run build`), and stamps it, so the next start builds nothing', async () => {
    await start();
    built = [];
    expect(await buildChanged(root, { stampFile, all: true, run, log: () => {} })).toEqual([
      '@x/core',
      '@x/web',
    ]);
    expect(await start()).toEqual([]);
  });

  it('stops at a failed build, and builds that workspace and the rest on the next start', async () => {
    await start();
    write('packages/core/src/index.ts', 'export const one = 3;');
    const failing = async (_root, workspace) => {
      if (workspace.name === '@x/core') throw new Error('tsc: error TS2322');
      await run(_root, workspace);
    };
    built = [];
    await expect(buildChanged(root, { stampFile, run: failing, log: () => {} })).rejects.toThrow('TS2322');
    expect(built).toEqual([]);
    expect(await start()).toEqual(['@x/core', '@x/web']);
  });
});
