// Folder scans never drop a file silently (issue 9): every data file looked at and not scored is
// a result with its reason; a file with nothing scored shows its real kind or none; the RAFT
// summary says plainly when no task was scored; counts agree in number.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { scorePath } from '../../src/core/score';
import { scorePathAsync } from '../../src/core/scoreAsync';
import { PARQUET_NEEDS_ASYNC } from '../../src/core/formats/parquet';
import type { Report } from '../../src/core/types';

const BANKING = resolve(__dirname, '../fixtures/real/raft/banking_77');

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-scan-'));
  mkdirSync(join(dir, 'run', 'banking_77'), { recursive: true });
  for (const f of ['train.csv', 'task.json']) copyFileSync(join(BANKING, f), join(dir, 'run', 'banking_77', f));
  // A submission holding only test-split IDs (the IDs after train.csv's): nothing has a gold label.
  const trainRows = readFileSync(join(BANKING, 'train.csv'), 'utf8').trim().split('\n').length - 1;
  writeFileSync(join(dir, 'run', 'banking_77', 'predictions.csv'), `ID,Label\n${trainRows + 5},card_arrival\n`);
  mkdirSync(join(dir, 'other'));
  writeFileSync(join(dir, 'other', 'metrics.csv'), 'model,accuracy,f1\nA,0.5,0.4\n');
  writeFileSync(join(dir, 'other', 'notes.json'), '{"run": 1, "seed": 3}\n');
  writeFileSync(join(dir, 'other', 'table.parquet'), 'PAR1'); // Parquet's magic, then nothing: a damaged table
  writeFileSync(join(dir, 'other', 'text.parquet'), 'a,b\n1,2\n'); // text under a Parquet name
  writeFileSync(join(dir, 'other', 'package.json'), '{"name": "x"}\n'); // configuration, not data
  writeFileSync(join(dir, 'other', 'readme.txt'), 'not a data file\n');
  return dir;
}

describe('a folder scan lists what it does not score', () => {
  const dir = folder();
  // The path the CLI and the editor's worker take.
  let reports: Report[] = [];
  beforeAll(async () => { reports = (await scorePathAsync(dir)).reports; });
  const rel = (p: string) => p.slice(dir.length + 1);

  it('every data file is a result: scored, or not scored with its reason', () => {
    // table.parquet is a Parquet file by name: read as one, and not scored with the reader's reason.
    expect(reports.map((r) => rel(r.path))).toEqual([
      'other/metrics.csv', 'other/notes.json', 'other/table.parquet', 'other/text.parquet',
      'run/banking_77/predictions.csv', 'run/banking_77/task.json', 'run/banking_77/train.csv',
    ]);
    const why = Object.fromEntries(reports.filter((r) => r.notScored).map((r) => [rel(r.path), r.fatal]));
    // A results summary is read as one (issue 26.1): its figures, named by its row, and no fatal.
    const metrics = reports.find((r) => rel(r.path) === 'other/metrics.csv')!;
    expect([metrics.format, metrics.notScored, metrics.fatal, metrics.reported]).toEqual(['summary', undefined, undefined, { 'A/accuracy': 0.5, 'A/f1': 0.4 }]);
    expect(why['other/notes.json']).toMatch(/^No prediction fields: run, seed;/);
    expect(why['other/text.parquet']).toMatch(/^It is not a Parquet file: it does not start with PAR1/);
    const parquet = reports.find((r) => r.path.endsWith('table.parquet'))!;
    expect([parquet.n, parquet.fatal]).toEqual([0, expect.stringMatching(/not a readable Parquet file/)]);
    expect(why['run/banking_77/train.csv']).toMatch(/task data/);
  });

  // Parquet tables are read since the Parquet reader landed: a file that starts like one is scored
  // (asynchronously), and when its rows cannot be read that is its fatal, not a "not scored" listing.
  it('a damaged Parquet table is scored and fails with its reason, not listed as not scored', () => {
    const sync = scorePath(dir).reports.find((r) => rel(r.path) === 'other/table.parquet')!;
    expect(sync.notScored).toBeUndefined();
    expect(sync.fatal).toBe(PARQUET_NEEDS_ASYNC);
    const table = reports.find((r) => rel(r.path) === 'other/table.parquet')!;
    expect(table.notScored).toBeUndefined();
    expect(table.fatal).toMatch(/^table\.parquet is not a readable Parquet file \(4 bytes\)/);
  });

  it('the banking_77 file with only test IDs is multiclass, not binary; unknown kinds are none', () => {
    const banking = reports.find((r) => r.path.endsWith('predictions.csv'))!;
    expect(banking.n).toBe(0);
    expect(banking.kind).toBe('multiclass');
    expect(banking.kindUnknown).toBeUndefined();
    expect(banking.fatal).toMatch(/^The only prediction is for an ID without a gold label/);
  });

  it('the CLI lists them in its table and JSON, and words the RAFT summary plainly', async () => {
    const table = await runCli(['score', dir]);
    expect(table.code).toBe(0); // no prediction scored, but the summary's figures were read
    expect(table.stderr).toBe(''); // files were found: not "no prediction files found"
    expect(table.stdout).toMatch(/other\/metrics\.csv\n {2}summary\n {2}a table of metrics per model: 2 figures\n {4}A\/accuracy +0\.5000\n/);
    expect(table.stdout).toMatch(/raft · multiclass · banking_77/);
    expect(table.stdout).toMatch(/raft_score: not computed: the RAFT task file could not be scored/);
    const json = JSON.parse((await runCli(['score', '--json', dir])).stdout);
    const metrics = json.results.find((r: { path: string }) => r.path.endsWith('metrics.csv'));
    expect(metrics).toMatchObject({ format: 'summary', kind: null, n: 0, reported: { 'A/accuracy': 0.5, 'A/f1': 0.4 } });
    expect(metrics.fatal).toBeUndefined();
    expect(metrics.summary.figures[0]).toEqual({ name: 'A/accuracy', metric: 'accuracy', model: 'A', value: 0.5 });
  });

  it('says "no prediction files found" only when there is no data file at all', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'eval-lens-scan-empty-'));
    writeFileSync(join(empty, 'readme.txt'), 'nothing here\n');
    const out = await runCli(['score', empty]);
    expect(out.stderr).toMatch(/no prediction files found/);
  });
});
