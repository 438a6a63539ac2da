// The extension's settings (contributes.configuration in package.json), read in one place so every
// feature scores with the same options and a change to any of them is noticed once.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ColumnMapping, ScoreOptions } from '../core/types';
import { globToRegExp } from './discovery/glob';

export const SECTION = 'evalLens';

export interface EvalLensSettings {
  include: string[];
  exclude: string[];
  bins: number;
  threshold: number;
  hmrBeta: number;
  /** Resamples for the report panel's intervals; background scoring never bootstraps. */
  bootstrap: number;
  /** evalLens.intervalMethod: how the report panel's intervals are made (docs/metrics.md#interval_method). */
  intervalMethod: 'bootstrap' | 't' | 'wilson';
  /** Absolute, or undefined when not set. */
  raftDataFolder: string | undefined;
  maxFileBytes: number;
  /** evalLens.dataFiles: predictions glob -> data file (resolved to an absolute path). */
  dataFiles: { glob: string; dataPath: string }[];
  /** lm-eval multiple choice: the choice the calibration views judge (acc or acc_norm). */
  decision: 'acc' | 'acc_norm';
  /**
   * evalLens.columnMappings: a table's columns by role, as "Map columns…" remembers them (workspace-
   * relative path or glob -> {label: COLUMN, score: COLUMN, ...}, the CLI's --map fields).
   */
  columnMappings: { pattern: string; mapping: ColumnMapping }[];
}

export const DEFAULT_INCLUDE = [
  '**/*.test_predictions.csv',
  '**/predictions.csv',
  '**/samples_*.jsonl',
  '**/*.predictions.jsonl',
  '**/*.jsonl',
  '**/*.csv',
  '**/*.tsv',
  '**/*.eval',
  '**/*.parquet',
  // Every JSON file is sniffed like the rest (its first 16 KB): Inspect's .json logs have names of
  // their own (<time>_<task>_<id>.json), as do HELM's run files, OpenCompass predictions, promptfoo's
  // -o results.json, AlpacaEval's annotations.json, arena battles, Every Eval Ever aggregates and
  // the results summaries; a JSON file that is none of these (package.json, tsconfig.json) is not listed.
  '**/*.json',
];
export const DEFAULT_EXCLUDE = [
  '**/node_modules/**', '**/.git/**', '**/out/**', '**/dist/**', '**/.venv/**', '**/venv/**',
  '**/__pycache__/**', '**/.vscode-test/**', '**/.tox/**', '**/site-packages/**',
];

export function readSettings(): EvalLensSettings {
  const c = vscode.workspace.getConfiguration(SECTION);
  const num = (key: string, fallback: number, ok: (v: number) => boolean) => {
    const v = c.get<number>(key, fallback);
    return typeof v === 'number' && ok(v) ? v : fallback;
  };
  const list = (key: string, fallback: string[]) => {
    const v = c.get<unknown>(key, fallback);
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : fallback;
  };
  return {
    include: list('include', DEFAULT_INCLUDE),
    exclude: list('exclude', DEFAULT_EXCLUDE),
    bins: Math.round(num('bins', 10, (v) => v >= 1 && v <= 1000)),
    threshold: num('threshold', 0.5, (v) => v >= 0 && v <= 1),
    hmrBeta: num('hmrBeta', 1, (v) => v >= 0),
    bootstrap: Math.round(num('bootstrap', 200, (v) => v >= 0 && v <= 100_000)),
    intervalMethod: intervalMethodSetting(c.get<unknown>('intervalMethod', 'bootstrap')),
    raftDataFolder: resolveFolder(c.get<string>('raftDataFolder', '')),
    maxFileBytes: num('maxFileSizeMB', 2048, (v) => v > 0) * 1024 * 1024,
    dataFiles: dataFileSetting(c.get<unknown>('dataFiles', {})),
    decision: c.get<string>('lmEvalDecision', 'acc') === 'acc_norm' ? 'acc_norm' : 'acc',
    columnMappings: columnMappingSetting(c.get<unknown>('columnMappings', {})),
  };
}

function intervalMethodSetting(v: unknown): EvalLensSettings['intervalMethod'] {
  return v === 't' || v === 'wilson' ? v : 'bootstrap';
}

/** The --map fields a mapping may name (ColumnMapping's keys). */
export const MAPPING_FIELDS = ['label', 'score', 'pred', 'confidence', 'correct', 'id'] as const;

function columnMappingSetting(value: unknown): EvalLensSettings['columnMappings'] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const out: EvalLensSettings['columnMappings'] = [];
  for (const [pattern, m] of Object.entries(value)) {
    if (!pattern.trim() || !m || typeof m !== 'object' || Array.isArray(m)) continue;
    const mapping: ColumnMapping = {};
    for (const field of MAPPING_FIELDS) {
      const column = (m as Record<string, unknown>)[field];
      if (typeof column === 'string' && column !== '') mapping[field] = column;
    }
    if (Object.keys(mapping).length) out.push({ pattern: pattern.replace(/\\/g, '/'), mapping });
  }
  return out;
}

/** The key "Map columns…" writes for a file: its workspace-relative path (absolute outside a workspace). */
export function mappingKey(path: string): string {
  return vscode.workspace.asRelativePath(path, false).replace(/\\/g, '/');
}

/**
 * The remembered columns of a file (evalLens.columnMappings): the entry naming its path exactly,
 * else the first glob it matches (workspace-relative, or absolute); undefined when none.
 */
export function mappingFor(path: string, s: EvalLensSettings): ColumnMapping | undefined {
  if (!s.columnMappings.length) return undefined;
  const relative = mappingKey(path);
  const posix = path.replace(/\\/g, '/');
  const exact = s.columnMappings.find(({ pattern }) => pattern === relative || pattern === posix);
  if (exact) return exact.mapping;
  return s.columnMappings.find(({ pattern }) => {
    try {
      const re = globToRegExp(pattern);
      return re.test(relative) || re.test(posix);
    } catch {
      return false;
    }
  })?.mapping;
}

function dataFileSetting(value: unknown): EvalLensSettings['dataFiles'] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const out: EvalLensSettings['dataFiles'] = [];
  for (const [glob, file] of Object.entries(value)) {
    const dataPath = typeof file === 'string' ? resolveFolder(file) : undefined;
    if (glob.trim() && dataPath) out.push({ glob, dataPath });
  }
  return out;
}

/** A relative folder setting is relative to the first workspace folder; `~` is the home folder. */
function resolveFolder(value: string | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (v.startsWith('~')) return path.join(process.env.HOME ?? '', v.slice(1));
  if (path.isAbsolute(v)) return v;
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  return root && root.scheme === 'file' ? path.join(root.fsPath, v) : undefined;
}

/**
 * Options for background scoring (tree, CodeLens, hover, diagnostics): no bootstrap, it shows no
 * intervals. With `path`, the file's remembered columns (evalLens.columnMappings) too.
 */
export function backgroundOptions(s: EvalLensSettings, path?: string): Partial<ScoreOptions> {
  const mapping = path === undefined ? undefined : mappingFor(path, s);
  return { bins: s.bins, threshold: s.threshold, hmrBeta: s.hmrBeta, bootstrap: 0, raftData: s.raftDataFolder, decision: s.decision, ...(mapping ? { mapping } : {}) };
}

/** Options for the report panel, which shows intervals (evalLens.bootstrap, evalLens.intervalMethod). */
export function panelOptions(s: EvalLensSettings, path?: string): Partial<ScoreOptions> {
  return { ...backgroundOptions(s, path), bootstrap: s.bootstrap, ...(s.intervalMethod !== 'bootstrap' ? { interval: s.intervalMethod } : {}) };
}

/** A stable string of the options that change numbers: part of every cache key. */
export function optionsKey(o: Partial<ScoreOptions>): string {
  return JSON.stringify([o.format ?? '', o.bins, o.threshold, o.hmrBeta, o.bootstrap, o.raftData ?? '', o.goldKey ?? '', o.groupBy ?? null, o.listColumns ?? null, o.decision ?? 'acc', o.mapping ?? null, o.interval ?? 'bootstrap', o.cluster ?? null]);
}
