// lighteval 0.11 details files with several per-sample metrics, made by hand in the shape lighteval
// writes them (a Detail row = doc, metric, model_response structs; details/<org>/<model>/<date_id>/
// details_<task>_<date_id>.parquet beside results/<org>/<model>/results_<date_id>.json, whose
// config_tasks declares each metric's higher_is_better), as a custom "I don't know" task logs them:
// trad_score (1 right, 0 otherwise), idk_score (1 right, 0 "I don't know", -1 wrong), idk_freq and
// extract_fail (0/1 rates). The metric values are DOUBLE, as pandas writes them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';

export interface IdkRow { trad_score: number; idk_score: number; idk_freq: number; extract_fail: number; answer: string }

export const METRICS = ['trad_score', 'idk_score', 'idk_freq', 'extract_fail'] as const;

const opt = (name: string, type: string, extra: Record<string, unknown> = {}) => ({ name, repetition_type: 'OPTIONAL', type, ...extra });
const text = (name: string) => opt(name, 'BYTE_ARRAY', { converted_type: 'UTF8' });
const list = (name: string) => [
  { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  text('element'),
];

/** One details file of `rows` for `task` under root/details/<model>/<ts>/; returns its path. */
export function writeIdkDetails(root: string, model: string, ts: string, task: string, rows: IdkRow[], metrics: readonly string[] = METRICS): string {
  const dir = join(root, 'details', ...model.split('/'), ts);
  mkdirSync(dir, { recursive: true });
  const schema = [
    { name: 'schema', num_children: 3 },
    { name: 'doc', repetition_type: 'OPTIONAL', num_children: 6 },
    ...list('choices'), opt('gold_index', 'INT64'), text('id'), text('query'), ...list('sampling_methods'), text('task_name'),
    { name: 'metric', repetition_type: 'OPTIONAL', num_children: metrics.length },
    ...metrics.map((m) => opt(m, 'DOUBLE')),
    { name: 'model_response', repetition_type: 'OPTIONAL', num_children: 1 },
    ...list('text'),
  ];
  const buf = parquetWriteBuffer({
    schema: schema as never,
    columnData: [
      { name: 'doc', data: rows.map((_, i) => ({ choices: ['A', 'B', 'C', 'D', 'E'], gold_index: BigInt(i % 4), id: String(100 + i), query: `Question ${i}?\nA) a\nB) b\nC) c\nD) d\nE) I don't know`, sampling_methods: ['GENERATIVE'], task_name: task })) },
      { name: 'metric', data: rows.map((r) => Object.fromEntries(metrics.map((m) => [m, r[m as keyof IdkRow] as number]))) },
      { name: 'model_response', data: rows.map((r) => ({ text: [`Answer: ${r.answer}`] })) },
    ],
  });
  const path = join(dir, `details_${task}_${ts}.parquet`);
  writeFileSync(path, new Uint8Array(buf));
  return path;
}

/** lighteval's results_<ts>.json for the run: the task's figures, and config_tasks with each metric's direction. */
export function writeIdkResults(root: string, model: string, ts: string, task: string, figures: Record<string, number>): string {
  const dir = join(root, 'results', ...model.split('/'));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `results_${ts}.json`);
  const doc = {
    config_general: { model_name: model },
    results: { [task]: figures, all: figures },
    config_tasks: {
      [task]: {
        name: task.split('|')[1],
        metrics: [{
          metric_name: ['trad_score', 'idk_score', 'idk_freq', 'extract_fail'],
          higher_is_better: { trad_score: true, idk_score: true, idk_freq: false, extract_fail: false },
          category: 'GENERATIVE',
        }],
      },
    },
  };
  writeFileSync(path, JSON.stringify(doc, null, 2));
  return path;
}

/** Six samples: 3 right, 1 wrong, 1 "I don't know", 1 answer that could not be extracted. */
export const SIX: IdkRow[] = [
  { trad_score: 1, idk_score: 1, idk_freq: 0, extract_fail: 0, answer: 'A' },
  { trad_score: 0, idk_score: -1, idk_freq: 0, extract_fail: 0, answer: 'C' },
  { trad_score: 0, idk_score: 0, idk_freq: 1, extract_fail: 0, answer: 'E' },
  { trad_score: 1, idk_score: 1, idk_freq: 0, extract_fail: 0, answer: 'D' },
  { trad_score: 0, idk_score: 0, idk_freq: 0, extract_fail: 1, answer: '?' },
  { trad_score: 1, idk_score: 1, idk_freq: 0, extract_fail: 0, answer: 'B' },
];
