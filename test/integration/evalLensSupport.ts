// Shared by the extension's integration tests: the extension's test API, polling, fixture paths,
// and reference numbers computed straight from the fixture files with plain arithmetic (never with
// the metric core), so the extension's figures are checked against an independent computation.
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalLensApi } from '../../src/extension/activate';

export const EXTENSION_ID = 'eval-lens.eval-lens';

export function workspaceRoot(): string {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(root, 'a workspace folder is open');
  return root;
}

export function fixture(rel: string): string {
  return path.join(workspaceRoot(), rel);
}

export const FOLKTEXTS = 'folktexts/ACSIncome/Mistral-7B.ACSIncome.test_predictions.csv';
export const BAD_ROWS = 'bad/bad_rows.test_predictions.csv';
export const RAFT_RUN = 'raft-run';
export const RAFT_DATA = 'raft-data';
export const ALMANACS = 'almanacs/advanced_ai_risk.predictions.jsonl';
export const LM_EVAL = 'lm-eval/toy-model/samples_toy_colours_2025-01-01T00-00-00.000000.jsonl';
export const GENERIC = 'generic/qa_confidence.csv';

export async function api(): Promise<EvalLensApi> {
  const ext = vscode.extensions.getExtension<EvalLensApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is loaded`);
  const a = await ext.activate();
  await a.whenIdle(60_000);
  return a;
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The gap between two inputs of a test about input timing (keystrokes, rewrites of a file): what
 * the test feeds in, never a wait for a result (wait with until(), whenIdle() or watcherBarrier()).
 */
export const inputGap = delay;

/** Polls `get` until `ok` holds (returns the value) or fails with the last value after `timeoutMs`. */
export async function until<T>(get: () => T | PromiseLike<T>, ok: (v: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T;
  for (;;) {
    last = await get();
    if (ok(last)) return last;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(last, replacer)} after ${timeoutMs} ms`);
    await delay(100);
  }
}

let barriers = 0;

/**
 * Returns once the extension has handled every file event in `dir` so far, and is idle: a probe
 * file written after those events is seen and scored, then its removal is seen too (the watcher
 * delivers one folder's events in order). What a fixed sleep "for late watcher events" guessed at.
 */
export async function watcherBarrier(a: EvalLensApi, dir: string): Promise<void> {
  const probe = path.join(dir, `barrier-${process.pid}-${++barriers}.test_predictions.csv`);
  const uri = vscode.Uri.file(probe);
  writeFileSync(probe, ',risk_score,label\n0,0.5,1\n');
  await until(() => a.files.get(uri)?.result !== undefined, (seen) => seen, `the watcher saw ${path.basename(probe)}`, 30_000);
  rmSync(probe);
  await until(() => a.files.get(uri), (entry) => entry === undefined, `the watcher saw ${path.basename(probe)} go`, 30_000);
  await a.whenIdle();
}

function replacer(_k: string, v: unknown) {
  return v instanceof vscode.Uri ? v.toString() : v;
}

// ---- reference numbers, from the files, by hand ------------------------------------------------

function csvRows(file: string): string[][] {
  // The fixtures quote only text fields of RAFT data; a small RFC 4180 reader is enough.
  const text = readFileSync(file, 'utf8');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n') { row.push(field.replace(/\r$/, '')); rows.push(row); row = []; field = ''; }
    else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

export interface BinaryReference { n: number; ece: number; auc: number; brier: number; accuracy: number; scores: number[]; labels: number[] }

/** folktexts `,risk_score,label`: ECE (`bins` equal-width bins, last closed), AUC (ties 1/2), Brier, accuracy at 0.5. */
export function binaryReference(rel: string, bins = 10): BinaryReference {
  const rows = csvRows(fixture(rel)).slice(1);
  const scores = rows.map((r) => Number(r[1]));
  const labels = rows.map((r) => Number(r[2]));
  const n = scores.length;
  let brier = 0;
  let correct = 0;
  const sumS = new Array(bins).fill(0);
  const sumY = new Array(bins).fill(0);
  const count = new Array(bins).fill(0);
  for (let i = 0; i < n; i++) {
    brier += (scores[i] - labels[i]) ** 2;
    if ((scores[i] >= 0.5 ? 1 : 0) === labels[i]) correct++;
    const b = Math.min(Math.floor(scores[i] * bins), bins - 1);
    sumS[b] += scores[i];
    sumY[b] += labels[i];
    count[b]++;
  }
  let ece = 0;
  for (let b = 0; b < bins; b++) if (count[b]) ece += (count[b] / n) * Math.abs(sumS[b] / count[b] - sumY[b] / count[b]);
  let wins = 0;
  let pairs = 0;
  for (let i = 0; i < n; i++) {
    if (labels[i] !== 1) continue;
    for (let j = 0; j < n; j++) {
      if (labels[j] !== 0) continue;
      pairs++;
      wins += scores[i] > scores[j] ? 1 : scores[i] === scores[j] ? 0.5 : 0;
    }
  }
  return { n, ece, auc: wins / pairs, brier: brier / n, accuracy: correct / n, scores, labels };
}

/** RAFT macro-F1 over the task's classes (task.json), predictions matched to train.csv by ID. */
export function raftMacroF1(task: string): number {
  const classes: string[] = JSON.parse(readFileSync(fixture(`${RAFT_DATA}/${task}/task.json`), 'utf8')).label_columns.Label;
  const train = csvRows(fixture(`${RAFT_DATA}/${task}/train.csv`));
  const labelAt = train[0].indexOf('Label');
  const idAt = train[0].indexOf('ID');
  const gold = new Map(train.slice(1).map((r) => [r[idAt], r[labelAt]]));
  const tp = new Map<string, number>();
  const fp = new Map<string, number>();
  const fn = new Map<string, number>();
  const inc = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const [id, pred] of csvRows(fixture(`${RAFT_RUN}/${task}/predictions.csv`)).slice(1)) {
    const g = gold.get(id);
    if (g === undefined) continue; // hidden test split
    if (g === pred) inc(tp, g);
    else { inc(fp, pred); inc(fn, g); }
  }
  const f1 = classes.map((c) => {
    const t = tp.get(c) ?? 0;
    const denom = 2 * t + (fp.get(c) ?? 0) + (fn.get(c) ?? 0);
    return denom ? (2 * t) / denom : 0;
  });
  return f1.reduce((a, b) => a + b, 0) / f1.length;
}

/** ALMANACS MSE of the predicted against the true P(Yes), over the three prediction shapes of the fixture. */
export function almanacsMse(): number {
  const lines = readFileSync(fixture(ALMANACS), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const errs = lines.map((o) => {
    const p = o.prediction?.probability ?? o.probability ?? JSON.parse(o.completion).probability;
    return (p - o.gold_prob) ** 2;
  });
  return errs.reduce((a, b) => a + b, 0) / errs.length;
}

/** lm-eval multiple choice: accuracy of the argmax log-likelihood against `target`. */
export function lmEvalAccuracy(): number {
  const lines = readFileSync(fixture(LM_EVAL), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  let right = 0;
  for (const o of lines) {
    const ll = (o.resps as [string, string][][]).map((r) => Number(r[0][0]));
    if (ll.indexOf(Math.max(...ll)) === Number(o.target)) right++;
  }
  return right / lines.length;
}

/** Generic `id,question,confidence,correct`: accuracy = mean(correct). */
export function genericAccuracy(): number {
  const rows = csvRows(fixture(GENERIC)).slice(1);
  return rows.reduce((a, r) => a + Number(r[r.length - 1]), 0) / rows.length;
}

export function near(actual: number | null | undefined, expected: number, what: string, tol = 1e-9): void {
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) <= tol, `${what}: ${actual} != ${expected}`);
}

// ---- exported files ----------------------------------------------------------------------------

export { acrossThePlot, dashedPaths, parseSvg, strokedPaths } from '../support/svg';

/** A PNG's width and height, from its IHDR chunk (after the signature, the chunk's length and type). */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  assert.equal(bytes.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'a PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR', 'the IHDR chunk first');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
