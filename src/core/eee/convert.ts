// eval-lens convert --to eee: every result `score PATH` gives (a file, each task of a file holding
// several, every predictions file of a folder, Parquet too) written as one Every Eval Ever evaluation
// under OUT/data/<benchmark>/<developer>/<model>/: <uuid4>.json and <uuid4>_samples.jsonl beside it.
// The reports are scored exactly as `score` scores them, with their per-instance columns; the parse
// each was built from comes along (ScoreOptions.onScored) for what a report does not keep per row.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ParseResult, Report, ScoreOptions } from '../types';
import { scorePathAsync } from '../scoreAsync';
import { buildReport, gatherSet, resolveOptions } from '../report';
import { notConvertible, writeEvaluation } from './write';
import { lightevalDeclared, lmEvalDeclared } from './taskMetrics';

export interface ConvertedEvaluation {
  /** The source file, and the task of it when it holds several. */
  source: string;
  task?: string;
  /** The model of this evaluation, when the source judges several and each is written apart. */
  model?: string;
  aggregatePath: string;
  samplesPath: string;
  /** Lines of the samples file: one per sample and result it has a value for. */
  rows: number;
  /** The aggregate's results (metric ids), the headline first. */
  results: string[];
  /** The task's metrics written as no result, with why (a mean that is Infinity). */
  leftOut: { metric: string; reason: string }[];
  report: Report;
}

export interface ConvertResult {
  written: ConvertedEvaluation[];
  /** Results of `score PATH` that were not written, with why (nothing scored, a data file that is not predictions). */
  notWritten: { source: string; task?: string; model?: string; reason: string }[];
  /** Every report, as `score PATH` gives them (their problems are the rows score skips). */
  reports: Report[];
}

export interface ConvertOptions {
  /** The converter's name and version, written into each aggregate. */
  generator: string;
  /** Overrides for tests: the uuid of each evaluation and the time written. */
  uuid?: () => string;
  now?: () => number;
}

export async function convertToEee(path: string, outDir: string, options: Partial<ScoreOptions>, c: ConvertOptions): Promise<ConvertResult> {
  const parses = new Map<Report, ParseResult>();
  const scored = await scorePathAsync(path, {
    ...options,
    instances: true,
    onScored: (report, parsed) => { parses.set(report, parsed); options.onScored?.(report, parsed); },
  });
  const result: ConvertResult = { written: [], notWritten: [], reports: scored.reports };
  const retrieved = (c.now ?? (() => Date.now() / 1000))();
  for (const first of scored.reports) {
    for (const { report, parsed, model } of await otherModels(first, parses, options)) {
      const why = notConvertible(report) ?? (parsed?.set ? null : 'nothing was scored');
      if (why) {
        result.notWritten.push({ source: report.path, ...(report.task ? { task: report.task } : {}), ...(model !== undefined ? { model } : {}), reason: why });
        continue;
      }
      for (const part of perModel(report, parsed!, options)) {
        if (part.none) result.notWritten.push({ source: report.path, ...(report.task ? { task: report.task } : {}), model: part.model, reason: part.none });
        else write(report, part.report, part.parsed, part.model ?? model);
      }
    }
  }
  return result;

  /** One evaluation written: the samples, then the aggregate; `source` is the report of the file as score gives it. */
  function write(source: Report, report: Report, parsed: ParseResult, model: string | undefined): void {
    const named = { source: source.path, ...(source.task ? { task: source.task } : {}), ...(model !== undefined ? { model } : {}) };
    let evaluation;
    try {
      // lighteval's and lm-eval's results files say which way each of the task's metrics is better, and their order.
      const declaredBy = report.format === 'lighteval' ? lightevalDeclared : report.format === 'lm-eval' ? lmEvalDeclared : undefined;
      const declared = declaredBy && report.reportedPath && report.task ? declaredBy(report.reportedPath, report.task, readText) : undefined;
      evaluation = writeEvaluation(report, parsed, { uuid: (c.uuid ?? randomUUID)(), retrieved, generator: c.generator, ...(declared ? { declared } : {}) });
    } catch (e) {
      result.notWritten.push({ ...named, reason: e instanceof Error ? e.message : String(e) });
      return;
    }
    const folder = join(outDir, ...evaluation.folder.split('/'));
    mkdirSync(folder, { recursive: true });
    const aggregatePath = join(folder, evaluation.aggregateName);
    const samplesPath = join(folder, evaluation.samplesName);
    // The samples first: an aggregate never points at a file that is not there.
    writeFileSync(samplesPath, evaluation.samples, { flag: 'wx' });
    writeFileSync(aggregatePath, `${JSON.stringify(evaluation.aggregate, null, 2)}\n`, { flag: 'wx' });
    result.written.push({ ...named, aggregatePath, samplesPath, rows: evaluation.rows, results: evaluation.results, leftOut: evaluation.leftOut, report });
  }
}

function readText(path: string): string | undefined {
  try { return readFileSync(path, 'utf8'); } catch { return undefined; }
}

/**
 * A file holding several models side by side (promptfoo's providers, a table's model columns) is
 * scored one model at a time, the first unless --model names one: with no --model, each of the
 * others is scored too, as `score --model NAME` scores it, so every model is written (an EEE
 * evaluation is one model's). Their problems are the first's, listed once with it.
 */
async function otherModels(first: Report, parses: Map<Report, ParseResult>, options: Partial<ScoreOptions>): Promise<{ report: Report; parsed: ParseResult | undefined; model?: string }[]> {
  const out: { report: Report; parsed: ParseResult | undefined; model?: string }[] = [];
  const several = options.model === undefined && first.models && first.models.length > 1 && first.model !== undefined && !first.fatal;
  out.push({ report: first, parsed: parses.get(first), ...(several ? { model: first.model } : {}) });
  if (!several) return out;
  for (const model of first.models!) {
    if (model === first.model) continue;
    const parsed = new Map<Report, ParseResult>();
    const again = await scorePathAsync(first.path, {
      ...options, model, ...(first.task ? { task: first.task } : {}), instances: true,
      onScored: (r, p) => { parsed.set(r, p); },
    });
    const report = again.reports.find((r) => r.task === first.task && r.model === model);
    if (report) out.push({ report, parsed: parsed.get(report), model });
  }
  return out;
}

/**
 * An EEE evaluation is one model's: a judge file grading several models (MT-Bench single grades, an
 * AlpacaEval file of several generators) is one report whose figures are per model (Report.groups),
 * so it is written as one evaluation per model, each scored again from that model's rows alone, as
 * `score --where model=…` would. Anything else, a pair file's verdicts included (each row is about
 * two models), is written whole.
 */
function perModel(report: Report, parsed: ParseResult, options: Partial<ScoreOptions>): { report: Report; parsed: ParseResult; model?: string; none?: string }[] {
  const set = parsed.set;
  const judge = set?.kind === 'scores' ? set.judge : undefined;
  if (!set || !judge || judge.kind === 'pair') return [{ report, parsed }];
  const byModel = new Map<number, number[]>();
  for (let i = 0; i < judge.model.length; i++) {
    const m = judge.model[i];
    const rows = byModel.get(m);
    if (rows) rows.push(i); else byModel.set(m, [i]);
  }
  // A model whose every verdict was invalid is still one of the file's: said, not silently left out
  // (and the one model left with verdicts is still named, not "unknown").
  const noVerdict = judge.models.map((_, m) => m).filter((m) => !byModel.has(m) && (judge.invalid.byModel[m] ?? 0) > 0);
  if (byModel.size + noVerdict.length < 2) return [{ report, parsed }];
  const none = noVerdict.map((m) => ({
    report, parsed, model: judge.models[m],
    none: `all ${judge.invalid.byModel[m]} verdicts of ${judge.models[m]} are ${judge.invalid.what}: there is no sample to write`,
  }));
  const o = resolveOptions({ ...options, instances: true, onScored: undefined, onProgress: undefined });
  const ids = set.ids;
  const texts = set.kind === 'scores' ? set.texts : undefined;
  return [...byModel].map(([m, rows]) => {
    const model = judge.models[m];
    const idx = Uint32Array.from(rows);
    // A judge reader prefixes each sample ID with its model when the file holds several
    // (mtBench.ts, alpacaEval.ts); alone, the model's samples are named as its own file names them.
    const own = (id: string) => (id.startsWith(`${model}/`) ? id.slice(model.length + 1) : id);
    const subset = {
      ...gatherSet(set, idx),
      ...(ids ? { ids: rows.map((i) => own(ids[i])) } : {}),
      ...(texts ? { texts: { fields: texts.fields, values: rows.map((i) => texts.values[i]) } } : {}),
    };
    const part: ParseResult = {
      ...parsed,
      set: subset,
      // The file's problems are listed once, with the whole file's report.
      problems: [],
      sourceModel: model,
      reported: {}, reportedPath: undefined, reportedNotes: undefined, metrics: undefined, breakdown: undefined,
      taskMetrics: parsed.taskMetrics?.map((t) => ({ name: t.name, values: Float64Array.from(rows, (i) => t.values[i]) })),
    };
    return { report: buildReport(report.path, part, o), parsed: part, model };
  }).concat(none);
}
