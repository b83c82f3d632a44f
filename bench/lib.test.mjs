import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArgs, runInOwnProcess, SECTIONS } from './index.mjs';
import {
  exitCode,
  formatAmount,
  formatMachine,
  formatMet,
  formatRows,
  median,
  parseOptions,
} from './lib.mjs';

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones, whatever the order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it('is NaN for no values, and leaves its input as it was', () => {
    expect(median([])).toBeNaN();
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('formatRows', () => {
  it('writes one Markdown row a figure: numbers with their unit, text as it is, the ratio, goal and met', () => {
    const table = formatRows([
      {
        figure: 'GET /api/me req/s, SQLite',
        value: 12345,
        reference: 20000,
        ratio: 0.617,
        goal: '≥ 0.5× bare Fastify',
        met: true,
        unit: 'req/s',
        cpuRatio: 0.5,
        ratios: [0.7, 0.55, 0.617],
      },
      {
        figure: 'bytes a first visit transfers',
        value: '109.2 KiB',
        reference: '439.2 KiB: the same files uncompressed',
        ratio: 0.25,
        goal: '≤ 130.0 KiB',
        met: false,
      },
      {
        figure: 'RSS idle',
        value: 100.5,
        reference: 59,
        ratio: 1.7,
        goal: '≤ 150 MiB',
        met: true,
        unit: 'MiB',
        note: 'a|b',
      },
    ]);
    expect(table.split('\n')).toEqual([
      '| figure | value | reference | ratio | goal | met | note |',
      '|---|---:|---|---:|---|---|---|',
      '| GET /api/me req/s, SQLite | 12,345 req/s | 20,000 req/s | 0.62× | ≥ 0.5× bare Fastify | yes | CPU a request: 0.50×; runs 0.55–0.70× |',
      '| bytes a first visit transfers | 109.2 KiB | 439.2 KiB: the same files uncompressed | 0.25× | ≤ 130.0 KiB | NO |  |',
      '| RSS idle | 100.5 MiB | 59 MiB | 1.70× | ≤ 150 MiB | yes | a\\|b |',
    ]);
  });

  it('shows a dash for a figure without a goal or a ratio', () => {
    expect(formatMet(undefined)).toBe('—');
    expect(formatAmount(Number.NaN, 'ms')).toBe('—');
    const [, , row] = formatRows([
      { figure: 'f', value: 1, reference: 2, ratio: Number.NaN, unit: 'ms' },
    ]).split('\n');
    expect(row).toBe('| f | 1 ms | 2 ms | — | — | — |  |');
  });
});

describe('exitCode', () => {
  const met = { met: true };
  const unmet = { met: false };

  it('fails when a section broke, smoke or not', () => {
    expect(exitCode({ rows: [met], failures: [{ section: 'server' }] })).toBe(1);
    expect(exitCode({ rows: [], failures: [{ section: 'server' }], smoke: true })).toBe(1);
  });

  it('does not fail on an unmet goal unless strict, and never in a smoke pass', () => {
    expect(exitCode({ rows: [met, unmet], failures: [] })).toBe(0);
    expect(exitCode({ rows: [met, unmet], failures: [], strict: true })).toBe(1);
    expect(exitCode({ rows: [met, unmet], failures: [], strict: true, smoke: true })).toBe(0);
    expect(exitCode({ rows: [met, { met: undefined }], failures: [], strict: true })).toBe(0);
  });
});

describe('the command line', () => {
  it('reads the options, the database from BENCH_DATABASE_URL when --pg is not given', () => {
    expect(parseArgs(['--smoke', '--only', 'server,signin', '--json', 'rows.json'], {})).toEqual({
      smoke: true,
      strict: false,
      only: ['server', 'signin'],
      json: 'rows.json',
      databaseUrl: undefined,
    });
    expect(parseArgs([], { BENCH_DATABASE_URL: 'postgres://a/b' }).databaseUrl).toBe('postgres://a/b');
    expect(parseArgs(['--pg', 'postgres://c/d'], { BENCH_DATABASE_URL: 'postgres://a/b' }).databaseUrl).toBe(
      'postgres://c/d',
    );
  });

  it('refuses an unknown option, a missing value and an unknown section', () => {
    expect(() => parseArgs(['--fast'], {})).toThrow(/unknown option --fast/);
    expect(() => parseArgs(['--pg'], {})).toThrow(/--pg needs a value/);
    expect(() => parseArgs(['--only', 'nope'], {})).toThrow(/no section nope/);
  });

  it('has a section a module, each named once', () => {
    const names = SECTIONS.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['start', 'browser', 'server', 'activity', 'signin', 'memory', 'wallet']),
    );
  });
});

describe('a section in a process of its own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dial-bench-section-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** A section module holding `body` (its `run(options)` function's), as a file URL the runner imports. */
  function sectionModule(body) {
    const file = join(dir, `section-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(file, `export async function run(options) {\n${body}\n}\n`);
    return pathToFileURL(file).href;
  }

  it('gets the options, passes its log lines on, and gives back its rows, NaN and all', async () => {
    const lines = [];
    const file = sectionModule(`
      options.log('measuring');
      return [{ figure: 'x', value: Number.NaN, smoke: options.smoke, pid: process.pid, flags: process.execArgv }];
    `);
    const rows = await runInOwnProcess(file, 'run', { smoke: true, log: (line) => lines.push(line) });
    expect(lines).toEqual(['measuring']);
    expect(rows).toHaveLength(1);
    expect(rows[0].value).toBeNaN();
    expect(rows[0].smoke).toBe(true);
    // Another process, with the servers' Node options.
    expect(rows[0].pid).not.toBe(process.pid);
    expect(rows[0].flags).toContain('--no-memory-reducer');
  });

  it("throws the section's error, and says when its process ended without rows", async () => {
    const failing = sectionModule("throw new Error('the server did not start');");
    await expect(runInOwnProcess(failing, 'run', {})).rejects.toThrow(/the server did not start/);
    const exiting = sectionModule('process.exit(3);');
    await expect(runInOwnProcess(exiting, 'run', {})).rejects.toThrow(/exited \(3\) without its rows/);
  });

  it('ends when the section has answered, even with a timer left running', async () => {
    const file = sectionModule('setInterval(() => {}, 1000); return [];');
    await expect(runInOwnProcess(file, 'run', {})).resolves.toEqual([]);
  });
});

describe('formatMachine', () => {
  it('says the CPU, cores, memory, load at start and end, Node and Chromium', () => {
    const start = {
      cpu: 'AMD EPYC',
      cores: 2,
      memoryGiB: 23.5,
      load: [2.1, 1.7, 0.96],
      node: 'v20.20.2',
      chromium: 'Chromium 156',
    };
    const end = { ...start, load: [3, 2, 1] };
    expect(formatMachine(start, end)).toBe(
      'Machine: AMD EPYC, 2 cores, 23.5 GiB; load average 2.10 1.70 0.96 at start, 3.00 2.00 1.00 at end; ' +
        'Node v20.20.2; Chromium 156',
    );
  });
});

describe('parseOptions', () => {
  const spec = {
    '--smoke': ['smoke', 'flag'],
    '--runs': ['runs', 'count'],
    '--seconds': ['seconds', 'number'],
    '--pg': ['databaseUrl', 'text'],
  };

  it('reads flags, whole numbers, numbers and text into their keys', () => {
    expect(
      parseOptions(['--smoke', '--runs', '3', '--seconds', '0.5', '--pg', 'postgres://x/y'], spec),
    ).toEqual({
      smoke: true,
      runs: 3,
      seconds: 0.5,
      databaseUrl: 'postgres://x/y',
    });
    expect(parseOptions([], spec)).toEqual({});
  });

  it('refuses an unknown option, a missing value and a value of the wrong kind, naming the option', () => {
    expect(() => parseOptions(['--rounds', '3'], spec)).toThrow(
      /unknown option --rounds \(known: --smoke, --runs/,
    );
    expect(() => parseOptions(['--runs'], spec)).toThrow('--runs needs a value');
    expect(() => parseOptions(['--runs', '2.5'], spec)).toThrow('--runs takes a whole number ≥ 1, not 2.5');
    expect(() => parseOptions(['--runs', '0'], spec)).toThrow('--runs takes a whole number ≥ 1, not 0');
    expect(() => parseOptions(['--seconds', 'soon'], spec)).toThrow('--seconds takes a number > 0, not soon');
  });
});
