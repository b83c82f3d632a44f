// Builds the workspaces whose sources changed since their last build, so a second `npm start` with nothing
// changed starts at once instead of rebuilding everything (scripts/start.mjs). A workspace is rebuilt when:
// - it was never built by this script here (no stamp), or
// - the hash of its inputs changed: the content of its files (not their mtimes, so a `git checkout` that
//   leaves them equal builds nothing), the root's package.json, package-lock.json (new dependencies) and
//   tsconfig.base.json, and the inputs of the workspaces among its `dependencies` (the web app bundles
//   core's source), or
// - its output changed since that build: `dist/` (each file's path, size and mtime) is not what the build
//   left, say because `npm run build` ran on another checkout, or `dist/` was deleted.
// Tests (`test/`, `*.test.*`), `dist/` and `node_modules/` are not inputs. The stamps live in
// node_modules/.cache/dial-builds.json, so a fresh clone (or `npm ci`) builds everything. `npm run build`
// (scripts/build.mjs) builds every workspace whatever changed, and stamps them too.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Files of the root that every workspace's build reads. */
const ROOT_INPUTS = ['package.json', 'package-lock.json', 'tsconfig.base.json'];
/** Folders that are never a build's input, wherever they are. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'artifacts', 'test-results']);
/** Files that are never a build's input. */
const SKIPPED_FILES = /\.test\.[cm]?[jt]sx?$|\.tsbuildinfo$/;

/**
 * The root's workspaces that have a `build` script, in the root's order (dependencies first, as
 * `npm run build --workspaces` builds them), each with the workspaces it depends on.
 */
export function readWorkspaces(root) {
  const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const all = (rootPackage.workspaces ?? []).map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    return {
      name: pkg.name,
      dir,
      builds: typeof pkg.scripts?.build === 'string',
      // Not devDependencies: those of the workspaces are test tools (the dev chain, the relay stand-in).
      dependsOn: Object.keys(pkg.dependencies ?? {}),
    };
  });
  const names = new Set(all.map((workspace) => workspace.name));
  return all.map((workspace) => ({
    ...workspace,
    dependsOn: workspace.dependsOn.filter((name) => names.has(name)),
  }));
}

/** Every input file of the workspace in `dir`, relative to it, sorted. */
function inputFiles(dir) {
  const files = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        const topLevelTests = folder === dir && entry.name === 'test';
        if (!SKIPPED_DIRS.has(entry.name) && !topLevelTests) walk(path);
      } else if (entry.isFile() && !SKIPPED_FILES.test(entry.name)) {
        files.push(relative(dir, path).split('\\').join('/'));
      }
    }
  };
  walk(dir);
  return files.sort();
}

/** Hashes named files' contents (a missing file hashes as missing). */
function hashFiles(base, files) {
  const hash = createHash('sha256');
  for (const file of files) {
    const path = join(base, file);
    hash.update(`${file}\0`);
    hash.update(existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'missing');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * The inputs' hash of each workspace: its own files, the root's, and its dependencies' hashes.
 *
 * @returns a map from workspace name to hash.
 */
export function hashInputs(root, workspaces) {
  const byName = new Map(workspaces.map((workspace) => [workspace.name, workspace]));
  const rootHash = hashFiles(root, ROOT_INPUTS);
  const hashes = new Map();
  const visiting = new Set();
  const hashOf = (workspace) => {
    const known = hashes.get(workspace.name);
    if (known !== undefined) return known;
    if (visiting.has(workspace.name)) throw new Error(`workspaces depend on each other: ${workspace.name}`);
    visiting.add(workspace.name);
    const dir = join(root, workspace.dir);
    const hash = createHash('sha256')
      .update(rootHash)
      .update(hashFiles(dir, inputFiles(dir)));
    for (const name of [...workspace.dependsOn].sort()) hash.update(`${name}:${hashOf(byName.get(name))}`);
    visiting.delete(workspace.name);
    const digest = hash.digest('hex');
    hashes.set(workspace.name, digest);
    return digest;
  };
  for (const workspace of workspaces) hashOf(workspace);
  return hashes;
}

/** What a workspace's `dist/` holds now (each file's path, size and mtime), or `null` when there is none. */
export function fingerprintOutput(dir) {
  const dist = join(dir, 'dist');
  if (!existsSync(dist)) return null;
  const hash = createHash('sha256');
  const entries = readdirSync(dist, { recursive: true }).map(String).sort();
  let files = 0;
  for (const entry of entries) {
    const stat = statSync(join(dist, entry));
    if (!stat.isFile()) continue;
    files += 1;
    hash.update(`${entry.split('\\').join('/')}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return files === 0 ? null : hash.digest('hex');
}

function readStamps(stampFile) {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * Which workspaces need a build, in build order, and why.
 *
 * @returns `[{ workspace, reason, inputs }]`, `reason` one of `never built`, `inputs changed`,
 *   `output changed`.
 */
export function planBuilds(root, stampFile, { all = false } = {}) {
  const workspaces = readWorkspaces(root).filter((workspace) => workspace.builds);
  const hashes = hashInputs(root, readWorkspaces(root));
  const stamps = readStamps(stampFile);
  const plan = [];
  for (const workspace of workspaces) {
    const stamp = stamps[workspace.name];
    const inputs = hashes.get(workspace.name);
    const reason = all
      ? 'full build'
      : stamp === undefined
        ? 'never built'
        : stamp.inputs !== inputs
          ? 'inputs changed'
          : stamp.output === null || stamp.output !== fingerprintOutput(join(root, workspace.dir))
            ? 'output changed'
            : undefined;
    if (reason !== undefined) plan.push({ workspace, reason, inputs });
  }
  return plan;
}

/** `npm run build` in a workspace, its output on this terminal. */
export function npmRunBuild(root, workspace) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build', '--workspace', workspace.dir], {
      cwd: root,
      // Always a production build: Vite takes NODE_ENV=development (a developer's shell, the dev server's
      // environment) as a request for React's development build, three times the weight.
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`building ${workspace.name} failed (${signal ?? code})`)),
    );
  });
}

/**
 * Builds, in order, each workspace {@link planBuilds} finds stale, and stamps each one as it succeeds (a
 * failed build leaves its workspace stale, and stops).
 *
 * @param options.all builds every workspace, changed or not (`npm run build`).
 * @param options.run builds one workspace (default: {@link npmRunBuild}).
 * @returns the names of the workspaces built.
 */
export async function buildChanged(
  root,
  { stampFile, all = false, run = npmRunBuild, log = console.log } = {},
) {
  const plan = planBuilds(root, stampFile, { all });
  for (const { workspace, reason, inputs } of plan) {
    log(`building ${workspace.name} (${reason})`);
    await run(root, workspace);
    const stamps = readStamps(stampFile);
    stamps[workspace.name] = { inputs, output: fingerprintOutput(join(root, workspace.dir)) };
    mkdirSync(dirname(stampFile), { recursive: true });
    writeFileSync(stampFile, `${JSON.stringify(stamps, null, 2)}\n`);
  }
  return plan.map(({ workspace }) => workspace.name);
}

/** Where `npm start` keeps its stamps under `root`. */
export function stampFileOf(root) {
  return join(root, 'node_modules', '.cache', 'dial-builds.json');
}
