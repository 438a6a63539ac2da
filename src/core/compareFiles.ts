// The Node side of comparing: read the files or run folders named on a command line and hand the
// parsed runs to the pure comparison (./compare/compare.ts). A folder holding one predictions
// file stands for that file (a folktexts run folder); folders with several files are compared
// task by task (RAFT run folders).
import type { ParseResult, PredictionSet, ScoreOptions } from './types';
import { applyWhere } from './slices/where';
import type { CompanionReader } from './formats/context';
import { nodeCompanionReader, isDirectory } from './io';
import { diskSource } from './formats/parquetAhead';
import { columnValuesFor } from './slices/clusterColumn';
import { discoverPredictionFiles, parseFile, readHead } from './score';
import type { ModelColumns } from './compare/multiModel';
import { tableRolesOfText } from './tableRoles';
import { resolveOptions } from './report';
import { comparisonSlices } from './compare/compareSlices';
import { CompareError, compareGroups, compareRuns, compareRunsDetailed, DEFAULT_COMPARE_RESAMPLES, type CompareGroupInput, type CompareRunInput, type Comparison } from './compare/compare';

/** A file parsed for a comparison; with --where, only its rows that satisfy the terms, with their IDs. */
export function parseRun(path: string, options: ScoreOptions, io: CompanionReader = nodeCompanionReader): ParseResult {
  const parsed = parseFile(path, options, io);
  if (!options.where?.terms.length) return parsed;
  const where = applyWhere(parsed, options.where, { ...diskSource(path), io });
  const filtered = where.parsed;
  // The filtered set leaves its IDs behind (gatherSet): the runs are aligned on them, so they go with the rows.
  const set = filtered.set && parsed.set && where.rows ? withIds(filtered.set, parsed.set, where.rows) : filtered.set;
  return { ...filtered, set, problems: filtered.problems.map((p) => (p.code === 'filtered' || p.code === 'bad-filter' ? { ...p, path } : p)) };
}

/**
 * `subset` (the rows `rows` of `whole`) with their IDs. A judge file of several models names each
 * row model/question/turn (MT-Bench, mtBench.ts), a file of one model question/turn: when the rows
 * kept are one model's (--where model=X), its name is dropped from their IDs, so they pair with the
 * same questions in a file of that model alone.
 */
function withIds(subset: PredictionSet, whole: PredictionSet, rows: Uint32Array): PredictionSet {
  if (whole.idNumbers) return { ...subset, idNumbers: Float64Array.from(rows, (r) => whole.idNumbers![r]) };
  if (!whole.ids) return subset;
  let ids = Array.from(rows, (r) => whole.ids![r]);
  const judge = subset.kind === 'scores' ? subset.judge : undefined;
  const named = whole.kind === 'scores' ? whole.judge?.models.length ?? 0 : 0;
  if (judge?.kind === 'judged' && named > 1 && judge.model.length > 0 && judge.model.every((m) => m === judge.model[0])) {
    const prefix = `${judge.models[judge.model[0]]}/`;
    if (ids.every((id) => id.startsWith(prefix))) ids = ids.map((id) => id.slice(prefix.length));
  }
  return { ...subset, ids };
}

/** One command-line argument, read: a file, or the prediction files under a folder. */
export function loadGroup(path: string, options: ScoreOptions, io: CompanionReader = nodeCompanionReader): CompareGroupInput {
  if (!isDirectory(path)) return { path, files: [{ path, parsed: parseRun(path, options, io) }] };
  const files = discoverPredictionFiles(path, options).map((f) => ({ path: f.path, parsed: parseRun(f.path, { ...options, format: f.format }, io) }));
  if (!files.length) throw new CompareError(`${path}: no prediction files found.`);
  return { path, files };
}

/** Compare the files or run folders at `paths` (the first is the baseline). Throws CompareError. */
export function comparePaths(paths: readonly string[], options?: Partial<ScoreOptions>, io: CompanionReader = nodeCompanionReader): Comparison {
  const o = resolveOptions({ ...options, bootstrap: options?.bootstrap ?? DEFAULT_COMPARE_RESAMPLES, instances: false });
  const models = paths.length === 1 ? modelRuns(paths[0], o) : [];
  if (models.length) {
    const runs: CompareRunInput[] = models.map((m) => ({ path: paths[0], name: m.name, parsed: parseRun(paths[0], m.options, io) }));
    if (o.cluster) {
      const got = baselineClusters(runs[0], o, io);
      if ('fatal' in got) throw new CompareError(`--cluster: ${got.fatal.message}`);
      runs[0] = { ...runs[0], clusters: got };
    }
    return withoutRowOrderNote(compareWithSlices(runs, o, io));
  }
  if (paths.length < 2) throw new CompareError(`${paths[0]} holds one run: name a baseline and at least one candidate, or a file with several models' Prob_<model> / Pred_<model> columns.`);
  const groups = paths.map((p) => loadGroup(p, o, io));
  sameFileCheck(groups);
  if (groups.every((g) => g.files.length === 1)) {
    const runs: CompareRunInput[] = groups.map((g) => ({ ...g.files[0], name: g.path }));
    if (o.cluster) {
      const got = baselineClusters(runs[0], o, io);
      if ('fatal' in got) throw new CompareError(`--cluster: ${got.fatal.message}`);
      runs[0] = { ...runs[0], clusters: got };
    }
    return compareWithSlices(runs, o, io);
  }
  if (o.slices) throw new CompareError('--slices compares single files (run folders are compared task by task, without slices).');
  if (o.cluster) throw new CompareError('--cluster compares single files (run folders are compared task by task, without clusters).');
  return compareGroups(groups, o);
}

/** compareRuns, and with --slices the slices where the candidates differ from the baseline. */
function compareWithSlices(runs: CompareRunInput[], o: ScoreOptions, io: CompanionReader): Comparison {
  if (!o.slices) return compareRuns(runs, o);
  const detail = compareRunsDetailed(runs, o);
  const found = comparisonSlices(detail, runs, o.slices, o, io);
  detail.comparison.slices = found.slices;
  detail.comparison.problems.push(...found.problems);
  return detail.comparison;
}

/**
 * A file named twice, most often a folder selected together with a file inside it: the comparison
 * would set the file against itself (every difference 0, every p 1). Refused, saying which.
 */
function sameFileCheck(groups: readonly CompareGroupInput[]): void {
  const owner = new Map<string, string>();
  for (const g of groups) {
    for (const f of g.files) {
      const first = owner.get(f.path);
      if (first !== undefined) {
        const where = (named: string) => (named === f.path ? `named as ${f.path}` : `inside the folder ${named}`);
        throw new CompareError(`${f.path} is both ${where(first)} and ${where(g.path)}: the comparison would set the file against itself. Choose two different files, or two run folders that do not hold each other.`);
      }
      owner.set(f.path, g.path);
    }
  }
}

/** --cluster: the baseline's column values (its own column, or a data file joined on ID). */
export function baselineClusters(run: CompareRunInput, o: ScoreOptions, io: CompanionReader): NonNullable<CompareRunInput['clusters']> | { fatal: { message: string } } {
  const set = run.parsed.set;
  const spec = o.cluster!;
  if (!set) return { fatal: { message: `${run.path}: nothing scored.` } };
  const { input, lineOffset } = diskSource(run.path);
  const got = columnValuesFor(set, spec, input, io, lineOffset);
  if ('fatal' in got) return { fatal: got.fatal };
  return { column: spec.column, values: got.values };
}

/** Each model of a file with several models' columns, and the options that read its run (else []). */
export function modelRuns(path: string, options: ScoreOptions): { name: string; options: ScoreOptions }[] {
  return modelsOf(path).map((m) => ({ name: m.model, options: { ...options, format: 'generic', mapping: { ...options.mapping, ...m.mapping } } }));
}

/** The models of one file share its rows: pairing them by row order is exact, not a guess worth a note. */
export function withoutRowOrderNote(c: Comparison): Comparison {
  c.problems = c.problems.filter((p) => !(c.aligned_by === 'row-order' && /paired by row order/.test(p.message)));
  return c;
}

/** The models of a CSV file with Prob_<model> / Pred_<model> columns (two or more), else []. */
export function modelsOf(path: string): ModelColumns[] {
  if (isDirectory(path) || !/\.(csv|tsv)$/i.test(path)) return [];
  const head = readHead(path);
  if (!head) return [];
  // The column roles (names and content): Prob_<model> columns are models only when they are not
  // the classes of one model (p_approve, p_reject beside y_true/y_pred are classes, roles.ts).
  const roles = tableRolesOfText(path, head).roles;
  const models = roles.models ?? [];
  if (models.length < 2) return [];
  return models.map((m) => ({ model: m.name, mapping: m.prob !== undefined ? { score: m.prob } : { pred: m.pred! } }));
}
