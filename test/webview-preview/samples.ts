// Reports for the preview harness, produced by the real metric core (scorePath) from the project's
// examples, from simulated predictions over the real RAFT training sets in test/fixtures/real, from a
// hostile RAFT task (markup and script in every text field) and from a 1,000,000-row folktexts file.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { scorePath } from '../../src/core';
import type { Report } from '../../src/core/types';
import { mulberry32 } from '../../src/core/metrics/bootstrap';

export interface Sample {
  name: string;
  /** What the sample shows, for the index page. */
  title: string;
  path: string;
  reports: Report[];
  summary: { raft_score?: number | null };
}

const ROOT = resolve(__dirname, '..', '..');
const REAL = join(ROOT, 'test', 'fixtures', 'real');

/** Deterministic pseudo-random numbers (mulberry32). */
/** The core's seeded PRNG, so generated data is reproducible. */
export const rng = mulberry32;

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function scratch(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `eval-lens-preview-${name}-`));
  return dir;
}

const bootstrap = { bootstrap: 200, seed: 1 };

function fromPath(name: string, title: string, path: string, options: Record<string, unknown> = {}): Sample | null {
  if (!existsSync(path)) return null;
  const result = scorePath(path, { ...bootstrap, ...options });
  return { name, title, path, reports: result.reports, summary: result.summary };
}

/**
 * A RAFT run over the real training sets copied into test/fixtures/real/raft: for each task,
 * predictions for the 50 labelled IDs from a simulated classifier that is right about 70% of the time.
 */
function realRaftRun(): Sample | null {
  const data = join(REAL, 'raft');
  if (!existsSync(data)) return null;
  const run = scratch('raft-run');
  const random = rng(7);
  for (const task of readdirSync(data).sort()) {
    const taskJson = join(data, task, 'task.json');
    const train = join(data, task, 'train.csv');
    if (!existsSync(taskJson) || !existsSync(train)) continue;
    const classes: string[] = JSON.parse(readFileSync(taskJson, 'utf8')).label_columns.Label;
    const text = readFileSync(train, 'utf8');
    // Gold labels from the CSV, to simulate a classifier; the core's RAFT parser reads them again when scoring.
    const ids: string[] = [];
    const gold: string[] = [];
    const rows = parseSimpleCsv(text);
    const header = rows[0];
    const labelAt = header.indexOf('Label');
    const idAt = header.indexOf('ID');
    for (const row of rows.slice(1)) {
      if (row.length < header.length) continue;
      ids.push(row[idAt]);
      gold.push(row[labelAt]);
    }
    const lines = ['ID,Label'];
    ids.forEach((id, k) => {
      const label = random() < 0.7 ? gold[k] : classes[Math.floor(random() * classes.length)];
      lines.push(`${id},${csvField(label)}`);
    });
    mkdirSync(join(run, task), { recursive: true });
    writeFileSync(join(run, task, 'predictions.csv'), lines.join('\n') + '\n');
  }
  const result = scorePath(run, { ...bootstrap, raftData: data });
  return { name: 'raft-real', title: 'RAFT run over the real training sets in test/fixtures/real (simulated predictions)', path: run, reports: result.reports, summary: result.summary };
}

/** Minimal RFC 4180 split, enough for the harness's own use. */
function parseSimpleCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); field = '';
      rows.push(row); row = [];
    } else field += c;
  }
  if (field || row.length) { row.push(field); rows.push(row); }
  return rows;
}

/** The hostile texts of issue 4: markup, script, javascript: links, a very long line. */
export const HOSTILE_TEXTS = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '<a href="javascript:window.__pwned = \'link\'">click me</a>',
  '<svg onload="window.__pwned = \'svg\'"></svg><style>body{display:none}</style>',
  '<iframe src="https://example.com/"></iframe><b>bold?</b> &amp; &lt;entity&gt;',
  `${'A very long line without breaks. '.repeat(3000)}END`,
];

/** A RAFT task whose texts, class names and IDs hold markup and script. */
function hostileRaft(): Sample {
  const dir = scratch('hostile');
  const data = join(dir, 'data', 'hostile_task');
  const run = join(dir, 'run', 'hostile_task');
  mkdirSync(data, { recursive: true });
  mkdirSync(run, { recursive: true });
  const classes = ['<b>benign</b>', '<img src=x onerror="window.__pwned=\'class\'">', 'javascript:alert(1)'];
  writeFileSync(join(data, 'task.json'), JSON.stringify({ name: 'hostile_task', data_columns: ['Text', 'Note', 'ID'], label_columns: { Label: [...classes].sort() } }));
  const train = ['Text,Note,Label,ID'];
  const preds = ['ID,Label'];
  for (let i = 0; i < 24; i++) {
    const text = HOSTILE_TEXTS[i % HOSTILE_TEXTS.length];
    const gold = classes[i % classes.length];
    const pred = i % 2 === 0 ? classes[(i + 1) % classes.length] : gold;
    train.push([csvField(text), csvField(`note ${i}: <script>window.__pwned="note"</script>`), csvField(gold), String(i)].join(','));
    preds.push(`${i},${csvField(pred)}`);
  }
  writeFileSync(join(data, 'train.csv'), train.join('\n') + '\n');
  writeFileSync(join(run, 'predictions.csv'), preds.join('\n') + '\n');
  const result = scorePath(join(dir, 'run'), { raftData: join(dir, 'data') });
  return { name: 'hostile', title: 'Hostile RAFT texts (must render as plain text)', path: join(dir, 'run'), reports: result.reports, summary: result.summary };
}

/** A folktexts-style file of `n` rows: an overconfident risk score on a 30%-positive task. */
export function bigFolktexts(n: number): string {
  const committed = join(ROOT, 'bench', 'data', 'folktexts-1m.test_predictions.csv');
  if (n === 1_000_000 && existsSync(committed)) return committed;
  const dir = scratch('big');
  const path = join(dir, `Sim-${n}.test_predictions.csv`);
  const random = rng(11);
  const parts: string[] = [',risk_score,label'];
  for (let i = 0; i < n; i++) {
    const label = random() < 0.3 ? 1 : 0;
    const logit = (label ? 1.2 : -1.2) + (random() + random() + random() - 1.5) * 2.5;
    const score = 1 / (1 + Math.exp(-1.6 * logit));
    parts.push(`${i},${score.toFixed(4)},${label}`);
  }
  writeFileSync(path, parts.join('\n') + '\n');
  return path;
}

/** A table with two models' columns side by side (the report offers "Model" and "Compare models"). */
function modelsTable(): string {
  const path = join(scratch('models'), 'classifiers.csv');
  const r = rng(5);
  const parts = ['id,Prob_LogReg,Pred_LogReg,Prob_SVM,Pred_SVM,label'];
  for (let i = 0; i < 300; i++) {
    const label = r() < 0.4 ? 1 : 0;
    const lr = Math.min(0.99, Math.max(0.01, (label ? 0.65 : 0.35) + 0.45 * (r() - 0.5)));
    const svm = Math.min(0.99, Math.max(0.01, (label ? 0.6 : 0.4) + 0.6 * (r() - 0.5)));
    parts.push(`${i},${lr.toFixed(4)},${lr >= 0.5 ? 1 : 0},${svm.toFixed(4)},${svm >= 0.5 ? 1 : 0},${label}`);
  }
  writeFileSync(path, parts.join('\n') + '\n');
  return path;
}

export function buildSamples(which: Set<string> | null, bigRows = 1_000_000): Sample[] {
  const want = (name: string) => !which || which.has(name);
  const out: (Sample | null)[] = [];
  const ex = join(ROOT, 'examples');
  if (want('folktexts')) out.push(fromPath('folktexts', 'folktexts risk scores with results.bench-*.json', join(ex, 'folktexts', 'Mistral-7B-sim__ACSIncome__-1', 'Mistral-7B-sim__ACSIncome__-1.test_predictions.csv')));
  if (want('raft')) out.push(fromPath('raft', 'RAFT run (examples/raft/run-1)', join(ex, 'raft', 'run-1'), { raftData: join(ex, 'raft', 'data') }));
  if (want('raft-real')) out.push(realRaftRun());
  if (want('almanacs')) out.push(fromPath('almanacs', 'ALMANACS predicted vs true P(Yes)', join(ex, 'almanacs', 'moral_dilemmas.predictions.jsonl')));
  if (want('lm-eval')) {
    const dir = join(ex, 'lm-eval', 'sim-model');
    const file = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.jsonl')) : undefined;
    if (file) out.push(fromPath('lm-eval', 'lm-eval multiple-choice samples', join(dir, file)));
  }
  if (want('generic')) out.push(fromPath('generic', 'Generic QA confidence', join(ex, 'generic', 'qa_confidence.csv')));
  if (want('models')) out.push(fromPath('models', 'Two models\' columns in one table (Prob_LogReg, Prob_SVM)', modelsTable(), { model: 'SVM' }));
  if (want('broken')) out.push(fromPath('broken', 'A file with bad rows', join(ex, 'folktexts', 'broken', 'broken.test_predictions.csv')));
  if (want('hostile')) out.push(hostileRaft());
  // Judge files (issue 27): the judge panels (webview/judge/).
  const judges = join(ROOT, 'test', 'fixtures', 'judges');
  if (want('mt-bench')) out.push(fromPath('mt-bench', 'MT-Bench single judgments with question.jsonl (3 models)', join(REAL, 'mt-bench', 'medusa', 'model_judgment', 'gpt-4_single.jsonl')));
  if (want('mt-bench-pair')) out.push(fromPath('mt-bench-pair', 'MT-Bench pair judgments (both orders)', join(REAL, 'mt-bench', 'phi-3-pair', 'gpt-4_pair.jsonl')));
  if (want('alpacaeval')) out.push(fromPath('alpacaeval', 'AlpacaEval annotations', join(judges, 'alpacaeval', 'toy-7b', 'alpaca_eval_gpt4', 'annotations.json')));
  if (want('arena')) out.push(fromPath('arena', 'Arena battles (5 models)', join(judges, 'arena', 'battles.jsonl')));
  if (want('arena-hard')) out.push(fromPath('arena-hard', 'Arena-Hard-Auto v0.1 judgments (real, Greek)', join(REAL, 'arena-hard', 'arena-hard-auto-greek', 'data', 'arena-hard-v0.1', 'model_judgment', 'claude-3.5-sonnet-v2', 'krikri-annealing-sft-mixed-run1.jsonl')));
  if (want('arena-humans')) out.push(fromPath('arena-humans', 'MT-Bench human judgments: ratings and the judge against humans', join(judges, 'arena', 'human_judgments.json')));
  if (want('big')) {
    const path = bigFolktexts(bigRows);
    const result = scorePath(path, { bootstrap: 0 });
    out.push({ name: 'big', title: `${bigRows.toLocaleString('en-US')} folktexts rows`, path, reports: result.reports, summary: result.summary });
  }
  return out.filter((s): s is Sample => s !== null);
}
