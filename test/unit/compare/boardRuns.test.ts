// Two runs of one model on one board (sweep 12, defect 4): they were merged into one row keeping the
// first file's figures, with a warning per task. Now a model evaluated at two revisions (pythia's
// checkpoints, model_args revision=step113000 / step143000: real lm-eval v0.3 results, trimmed to
// four tasks) is two rows; two runs of the same model and revision keep the newest, with one warning
// naming both files.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boardPaths } from '../../../src/core/boardFiles';
import { runStampOfResults } from '../../../src/core/formats/lmEvalResults';
import { REAL } from '../realData';

const PYTHIA = join(REAL, 'lm-eval', 'pythia-v1.1-160m-checkpoints');
const accOf = (file: string) => JSON.parse(readFileSync(join(PYTHIA, file), 'utf8')).results as Record<string, { acc: number }>;

describe('board: one model at two revisions', () => {
  const { board } = boardPaths([PYTHIA], { bootstrap: 0 });

  it('is one row per revision, each with its own file\'s figures', () => {
    expect(board.rows.map((r) => r.run).sort()).toEqual(['EleutherAI/pythia-v1.1-160m@step113000', 'EleutherAI/pythia-v1.1-160m@step143000']);
    for (const step of ['step113000', 'step143000']) {
      const row = board.rows.find((r) => r.run.endsWith(step))!;
      const acc = accOf(`160m_${step}.json`);
      for (const task of board.columns) expect(row.values[task]).toBe(acc[task].acc);
    }
    // step143000's arc_challenge (0.18771), not step113000's (0.18345) in both rows.
    expect(board.rows.find((r) => r.run.endsWith('step143000'))!.values.arc_challenge).toBeCloseTo(0.18771331, 8);
  });

  it('says nothing of duplicates', () => {
    expect(board.problems.filter((p) => p.code === 'duplicate-id')).toEqual([]);
  });
});

/** A small lm-eval 0.4 results document (hand-made, the shape of an Open LLM Leaderboard run). */
function results04(date: number, acc: Record<string, number>, revision = 'main'): string {
  return JSON.stringify({
    results: Object.fromEntries(Object.entries(acc).map(([t, v]) => [t, { alias: t, 'acc_norm,none': v, 'acc_norm_stderr,none': 0.01 }])),
    config: { model: 'hf', model_args: 'pretrained=org/model-8B,dtype=float16', model_revision: revision },
    date, model_name: 'org/model-8B',
  });
}

describe('board: two runs of one model and revision', () => {
  it('keeps the newest run\'s figures, with one warning naming both files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'board-runs-'));
    // The older run is read first (its name sorts first); 1737745150 is 2025-01-24 18:59:10 UTC.
    writeFileSync(join(dir, 'results_2025-01-24T19-02-29.392595.json'), results04(1737745150.17, { hellaswag: 0.70, bbh_navigate: 0.50, gpqa: 0.30 }));
    writeFileSync(join(dir, 'results_2025-01-26T22-29-00.931915.json'), results04(1737929711.13, { hellaswag: 0.74, bbh_navigate: 0.62, gpqa: 0.28 }));
    const { board } = boardPaths([dir], { bootstrap: 0 });
    expect(board.rows).toHaveLength(1);
    expect(board.rows[0].values).toEqual({ bbh_navigate: 0.62, gpqa: 0.28, hellaswag: 0.74 });
    const warnings = board.problems.filter((p) => p.severity === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toMatch(/org\/model-8B \(revision main\) has two runs of the same 3 tasks: results_2025-01-26T22-29-00\.931915\.json \(2025-01-26 22:15 UTC\), results_2025-01-24T19-02-29\.392595\.json \(2025-01-24 18:59 UTC\); the board shows the newest/);
  });

  it('without dates keeps the first read, and says so once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'board-runs-'));
    const v03 = (acc: number) => JSON.stringify({ results: { piqa: { acc, acc_stderr: 0.01 }, sciq: { acc, acc_stderr: 0.01 } }, config: { model: 'hf-causal', model_args: 'pretrained=org/m' } });
    writeFileSync(join(dir, 'a.json'), v03(0.6));
    writeFileSync(join(dir, 'b.json'), v03(0.7));
    const { board } = boardPaths([dir], { bootstrap: 0 });
    expect(board.rows.map((r) => r.values)).toEqual([{ piqa: 0.6, sciq: 0.6 }]);
    const warnings = board.problems.filter((p) => p.severity === 'warning');
    expect(warnings.map((w) => w.message)).toEqual(['org/m has two runs of the same 2 tasks: a.json, b.json; the board shows the first read, a.json (the runs carry no date).']);
  });
});

describe('runStampOfResults', () => {
  it('reads revision= of model_args (string or object), else model_revision; the date, else the name\'s timestamp', () => {
    expect(runStampOfResults({ config: { model_args: 'pretrained=x,revision=step1000,dtype=float16' } })).toEqual({ revision: 'step1000' });
    expect(runStampOfResults({ config: { model_args: { pretrained: 'x', revision: 'v2' }, model_revision: 'main' } })).toEqual({ revision: 'v2' });
    expect(runStampOfResults({ config: { model_args: 'pretrained=x', model_revision: 'main' }, date: 1 })).toEqual({ revision: 'main', date: 1000 });
    expect(runStampOfResults({ config: {} }, '/r/results_2025-01-24T19-02-29.392595.json')).toEqual({ date: Date.UTC(2025, 0, 24, 19, 2, 29, 392) });
  });
});
