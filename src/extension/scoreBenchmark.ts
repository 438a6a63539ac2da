// "Eval Lens: Score Benchmark": pick a benchmark, then a file or folder (RAFT: a run folder and,
// when needed, the RAFT data folder), score it with a cancellable progress notification and open
// the report. Arguments skip the pickers, so tests and other extensions can call it without UI:
//   executeCommand('evalLens.scoreBenchmark', { path | uri, format?, raftData?, show? })
//   executeCommand('evalLens.scoreBenchmark', uri, format?)
// It returns the result ({ reports, summary }), or undefined when cancelled.
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FormatName } from '../core/types';
import { FORMAT_NAMES } from '../core/types';
import type { EvalFiles } from './discovery/evalFiles';
import { headlineText, raftScore, formatNumber } from './editor/headline';
import type { ReportScoring, ScoreChoice } from './worker/scoring';
import { FORMAT_LABELS, raftRunOf } from './discovery/tree';
import type { EvalLensSettings } from './settings';
import { isCancelled } from './worker/workerPool';
import type { ScoreResult } from './worker/workerProtocol';

export interface ScoreBenchmarkArgs {
  path?: string;
  uri?: vscode.Uri;
  format?: FormatName;
  raftData?: string;
  /** Open the report panel (default true). */
  show?: boolean;
}

export interface ScoreBenchmarkDeps {
  files: EvalFiles;
  scoring: ReportScoring;
  settings: () => EvalLensSettings;
  showReport: (path: string, result: ScoreResult) => void;
  /** Opens the report panel on `path` with a spinner before scoring starts; fail() if it does not end in a result. */
  prepareReport?: (path: string) => { fail(message: string): void };
  log: vscode.LogOutputChannel;
  /** Hears every percentage the progress notification shows (tests). */
  onProgressShown?: (percent: number) => void;
}

const FORMAT_DETAILS: Record<FormatName, string> = {
  folktexts: 'risk scores: *.test_predictions.csv (,risk_score,label)',
  raft: 'few-shot classification: a run folder of <task>/predictions.csv',
  almanacs: 'predicted vs. true P(Yes): JSON Lines',
  'lm-eval': 'lm-evaluation-harness samples_<task>_<time>.jsonl',
  inspect: 'Inspect AI logs: *.eval, or the older *.json logs',
  generic: 'any CSV / TSV / JSON Lines with score, label, confidence... columns',
  helm: 'HELM run folders: per_instance_stats.json, scenario_state.json',
  lighteval: 'lighteval details_*.parquet',
  promptfoo: 'promptfoo eval -o results.json',
  opencompass: 'OpenCompass predictions (an object of records with prediction and gold)',
  eee: 'Every Eval Ever: an evaluation .json or a *_samples.jsonl instance file',
  alpacaeval: 'AlpacaEval annotations.json (pairwise preferences)',
  'mt-bench': 'FastChat MT-Bench judgments: *_single.jsonl, *_pair.jsonl',
  arena: 'arena battles: model_a, model_b, winner',
  'arena-hard': 'Arena-Hard-Auto judgments: model_judgment/<judge>/<model>.jsonl (two games per question)',
  summary: 'figures a run reports: results and stats files, leaderboard tables',
};

function isFormat(v: unknown): v is FormatName {
  return typeof v === 'string' && (FORMAT_NAMES as readonly string[]).includes(v);
}

/** Normalises the accepted argument shapes; undefined when the UI must ask. */
export function parseArgs(a: unknown, b: unknown): ScoreBenchmarkArgs | undefined {
  if (a instanceof vscode.Uri) return { uri: a, format: isFormat(b) ? b : undefined };
  if (typeof a === 'string') return { path: a, format: isFormat(b) ? b : undefined };
  if (a && typeof a === 'object' && ('path' in a || 'uri' in a)) {
    const o = a as Record<string, unknown>;
    const uri = o.uri instanceof vscode.Uri ? o.uri : typeof o.uri === 'string' ? vscode.Uri.parse(o.uri) : undefined;
    return {
      path: typeof o.path === 'string' ? o.path : undefined,
      uri,
      format: isFormat(o.format) ? o.format : undefined,
      raftData: typeof o.raftData === 'string' ? o.raftData : undefined,
      show: typeof o.show === 'boolean' ? o.show : undefined,
    };
  }
  return undefined;
}

export async function scoreBenchmark(deps: ScoreBenchmarkDeps, a?: unknown, b?: unknown): Promise<ScoreResult | undefined> {
  const args = parseArgs(a, b) ?? (await askUser(deps));
  if (!args) return undefined;
  const target = args.uri?.fsPath ?? (args.path ? resolvePath(args.path) : undefined);
  if (!target) return undefined;
  const choice: ScoreChoice = { format: args.format, raftData: args.raftData ?? (args.format === 'raft' ? deps.settings().raftDataFolder : undefined) };
  const name = path.basename(target);
  // The panel's webview starts while the worker scores.
  const pending = args.show !== false ? deps.prepareReport?.(target) : undefined;
  const t0 = Date.now();
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Eval Lens: scoring ${name}`, cancellable: true },
      async (progress, token) => {
        let reported = 0;
        return deps.scoring.scoreForReport(target, token, choice, (fraction) => {
          const pct = Math.min(100, Math.round(fraction * 100));
          if (pct > reported) {
            progress.report({ increment: pct - reported, message: `${pct}%` });
            deps.onProgressShown?.(pct);
          }
          reported = Math.max(reported, pct);
        });
      },
    );
    deps.scoring.remember(target, choice);
    const t = result.timings;
    deps.log.info(`Score Benchmark: ${target} -> ${result.reports.length} report(s)${result.summary.raft_score !== undefined ? `, raft_score ${formatNumber(result.summary.raft_score, 4)}` : ''}`
      + ` in ${Date.now() - t0} ms${t ? ` (worker: scored ${Math.round(t.scoreMs)} ms, encoded ${Math.round(t.encodeMs)} ms; reply ${Math.round(t.roundTripMs)} ms after the request)` : ''}`);
    if (!result.reports.length) void vscode.window.showWarningMessage(`Eval Lens: no prediction files of that kind in ${name}.`);
    if (args.show !== false) deps.showReport(target, result);
    return result;
  } catch (e) {
    if (isCancelled(e)) {
      deps.log.info(`Score Benchmark: ${target} cancelled`);
      pending?.fail(`Scoring ${name} was cancelled.`);
      return undefined;
    }
    const message = e instanceof Error ? e.message : String(e);
    pending?.fail(`Could not score ${target}: ${message}`);
    void vscode.window.showErrorMessage(`Eval Lens could not score ${name}: ${message}`);
    throw e;
  }
}

function resolvePath(p: string): string {
  if (path.isAbsolute(p)) return p;
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return root ? path.join(root, p) : p;
}

interface TargetItem extends vscode.QuickPickItem {
  target?: string;
  browse?: boolean;
}

async function askUser(deps: ScoreBenchmarkDeps): Promise<ScoreBenchmarkArgs | undefined> {
  const entries = deps.files.all();
  const formatPick = await vscode.window.showQuickPick(
    FORMAT_NAMES.map((f) => {
      const n = entries.filter((e) => e.format === f).length;
      return { label: FORMAT_LABELS[f], description: n ? `${n} found` : '', detail: FORMAT_DETAILS[f], format: f };
    }),
    { title: 'Eval Lens: Score Benchmark (1/2)', placeHolder: 'Which benchmark?', ignoreFocusOut: true },
  );
  if (!formatPick) return undefined;
  const format = formatPick.format;

  const items: TargetItem[] = [];
  if (format === 'raft') {
    const runs = new Map<string, typeof entries>();
    for (const e of entries.filter((x) => x.format === 'raft')) runs.set(raftRunOf(e), [...(runs.get(raftRunOf(e)) ?? []), e]);
    for (const [dir, tasks] of runs) {
      const score = raftScore(tasks.flatMap((t) => t.result?.reports ?? []));
      items.push({ label: `$(folder) ${path.basename(dir)}`, description: vscode.workspace.asRelativePath(dir), detail: `${tasks.length} tasks · raft_score ${formatNumber(score)}`, target: dir });
    }
  } else {
    for (const e of entries.filter((x) => x.format === format).sort((x, y) => x.path.localeCompare(y.path))) {
      const r = e.result?.reports[0];
      items.push({ label: `$(file) ${path.basename(e.path)}`, description: vscode.workspace.asRelativePath(e.uri), detail: r ? headlineText(r) : undefined, target: e.path });
    }
  }
  items.push({ label: '$(folder-opened) Browse…', description: format === 'raft' ? 'a RAFT run folder' : 'a file or folder', browse: true, alwaysShow: true });
  const picked = await vscode.window.showQuickPick(items, {
    title: `Eval Lens: Score Benchmark (2/2): ${FORMAT_LABELS[format]}`,
    placeHolder: format === 'raft' ? 'Which run folder (one folder per task inside)?' : 'Which predictions file or folder?',
    ignoreFocusOut: true,
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  let target = picked.target;
  if (picked.browse) {
    const chosen = await vscode.window.showOpenDialog({
      title: format === 'raft' ? 'RAFT run folder' : `${FORMAT_LABELS[format]} predictions`,
      canSelectFiles: format !== 'raft',
      canSelectFolders: true,
      canSelectMany: false,
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      openLabel: 'Score',
    });
    target = chosen?.[0]?.fsPath;
  }
  if (!target) return undefined;

  let raftData: string | undefined;
  if (format === 'raft') {
    raftData = deps.settings().raftDataFolder;
    if (!raftData && !hasGoldBeside(target)) {
      const chosen = await vscode.window.showOpenDialog({
        title: 'RAFT data folder (<task>/train.csv and task.json); cancel to score without gold labels',
        canSelectFiles: false,
        canSelectFolders: true,
        canSelectMany: false,
        openLabel: 'Use as RAFT data',
      });
      raftData = chosen?.[0]?.fsPath;
    }
  }
  return { path: target, format, raftData };
}

/** Does a RAFT run folder (or task folder) carry train.csv beside its predictions? */
function hasGoldBeside(target: string): boolean {
  try {
    if (!statSync(target).isDirectory()) return existsSync(path.join(path.dirname(target), 'train.csv'));
    if (existsSync(path.join(target, 'train.csv'))) return true;
    return readdirSync(target).some((t) => existsSync(path.join(target, t, 'train.csv')));
  } catch {
    return false;
  }
}
