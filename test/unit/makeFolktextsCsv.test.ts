// bench/make-folktexts-csv.mjs (issue 28, point 12): --help prints the usage and writes nothing; an
// unknown option is refused; with no options it writes bench/data/folktexts-1m.test_predictions.csv,
// a million rows (the file the benchmarks read).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SCRIPT = join(ROOT, 'bench', 'make-folktexts-csv.mjs');
const DEFAULT = join(ROOT, 'bench', 'data', 'folktexts-1m.test_predictions.csv');
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8' });

describe('bench/make-folktexts-csv.mjs', () => {
  it('--help prints the usage and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-make-csv-'));
    const before = existsSync(DEFAULT) ? statSync(DEFAULT).mtimeMs : null;
    for (const args of [['--help'], ['-h'], ['--help', '--out', join(dir, 'x.csv')], ['--rows', '5', '--help']]) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/^usage: node bench\/make-folktexts-csv\.mjs/);
      expect(r.stdout).toContain('--rows N');
    }
    expect(existsSync(join(dir, 'x.csv'))).toBe(false);
    expect(existsSync(DEFAULT) ? statSync(DEFAULT).mtimeMs : null).toBe(before);
  });

  it('refuses an unknown option or a bad --rows, writing nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-make-csv-'));
    for (const args of [['--nope'], ['--rows', 'many'], ['--rows']]) {
      const r = run(...args, '--out', join(dir, 'x.csv'));
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/^make-folktexts-csv: .*\nusage:/);
    }
    expect(existsSync(join(dir, 'x.csv'))).toBe(false);
  });

  it('--rows and --out write that many folktexts rows there', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'eval-lens-make-csv-')), 'small.test_predictions.csv');
    expect(run('--rows', '25', '--out', out).status).toBe(0);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe(',risk_score,label');
    expect(lines).toHaveLength(26);
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(new Set(rows.map((r) => r[0])).size).toBe(25);
    for (const [, s, y] of rows) {
      expect(Number(s)).toBeGreaterThanOrEqual(0);
      expect(Number(s)).toBeLessThanOrEqual(1);
      expect(['0', '1']).toContain(y);
    }
  });

  it('with no options writes the million-row file the benchmarks read', () => {
    const started = Date.now();
    const r = run();
    expect(r.status, r.stderr).toBe(0);
    expect(statSync(DEFAULT).mtimeMs).toBeGreaterThanOrEqual(started - 1000);
    const text = readFileSync(DEFAULT, 'utf8');
    expect(text.startsWith(',risk_score,label\n')).toBe(true);
    let newlines = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines++;
    expect(newlines).toBe(1_000_001);
    expect(existsSync(`${DEFAULT}.part`)).toBe(false);
  }, 120_000);
});
