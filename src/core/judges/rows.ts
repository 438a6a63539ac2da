// Building and gathering JudgeRows (./types.ts): readers add one verdict at a time (an invalid one
// is counted, not added), then take the columnar rows; --where and compare's alignment gather them
// with the set's rows. A reader of any harness with judged samples (promptfoo's `score`, Inspect's
// model-graded scores) makes its rows with JudgedRowsBuilder, or from its sample records with
// judgedRowsOf (./judged.ts), sets them on its ScoresSet (set.judge), and gets every judge figure.
import type { InvalidVerdicts, JudgedRows, JudgeRows, PairRows, PreferenceRows } from './types';

/** Invalid verdicts whose lines are kept. */
const INVALID_LINES = 100;

/** Names to indices, in order of first appearance. */
export class Interner {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();

  of(name: string): number {
    let k = this.index.get(name);
    if (k === undefined) { k = this.names.length; this.names.push(name); this.index.set(name, k); }
    return k;
  }
}

/** Growable columns (typed arrays at the end). */
class Column<T extends Int32Array | Float64Array | Int8Array> {
  private values: number[] = [];
  constructor(private readonly make: (values: number[]) => T) {}
  push(v: number): void { this.values.push(v); }
  done(): T { return this.make(this.values); }
}
const ints = () => new Column((v) => Int32Array.from(v));
const floats = () => new Column((v) => Float64Array.from(v));

/** The shared part: models, judges, invalid verdicts. */
class BuilderBase {
  readonly models = new Interner();
  readonly judges = new Interner();
  protected invalidCount = 0;
  protected readonly invalidLines: number[] = [];
  protected readonly invalidByModel: number[] = [];

  constructor(readonly invalidWhat: string) {}

  /** Counts an invalid verdict of the model(s) (indices) on `line`. */
  invalid(models: number | readonly number[], line: number): void {
    this.invalidCount++;
    if (this.invalidLines.length < INVALID_LINES) this.invalidLines.push(line);
    for (const m of typeof models === 'number' ? [models] : models) this.invalidByModel[m] = (this.invalidByModel[m] ?? 0) + 1;
  }

  get invalidVerdicts(): InvalidVerdicts {
    return {
      count: this.invalidCount, what: this.invalidWhat, lines: this.invalidLines.slice(),
      byModel: this.models.names.map((_, m) => this.invalidByModel[m] ?? 0),
    };
  }
}

/** Judged scores: one grade per answer. */
export class JudgedRowsBuilder extends BuilderBase {
  readonly questions = new Interner();
  private readonly model = ints();
  private readonly question = ints();
  private readonly turn = ints();
  private readonly score = floats();
  private readonly human = floats();
  private anyHuman = false;
  n = 0;

  /** Adds a valid grade. */
  add(model: string, question: string, turn: number, score: number, judge?: string, human?: number): void {
    this.model.push(this.models.of(model));
    this.question.push(this.questions.of(question));
    this.turn.push(turn);
    this.score.push(score);
    this.human.push(human ?? NaN);
    if (human !== undefined && human === human) this.anyHuman = true;
    if (judge !== undefined) this.judges.of(judge);
    this.n++;
  }

  build(categories?: { of: (question: string) => string | undefined; path: string }): JudgedRows {
    const rows: JudgedRows = {
      kind: 'judged', models: this.models.names, judges: this.judges.names, invalid: this.invalidVerdicts,
      model: this.model.done(), question: this.question.done(), questions: this.questions.names,
      turn: this.turn.done(), score: this.score.done(),
    };
    if (this.anyHuman) rows.human = this.human.done();
    if (categories) {
      const names = new Interner();
      const perQuestion = this.questions.names.map((q) => { const c = categories.of(q); return c === undefined ? -1 : names.of(c); });
      if (names.names.length) {
        rows.category = Int32Array.from(rows.question, (q) => perQuestion[q]);
        rows.categories = names.names;
        rows.categoriesPath = categories.path;
      }
    }
    return rows;
  }
}

/** AlpacaEval preferences. */
export class PreferenceRowsBuilder extends BuilderBase {
  private readonly baseline = ints();
  private readonly model = ints();
  private readonly preference = floats();
  private readonly length1 = floats();
  private readonly length2 = floats();
  private readonly human = floats();
  private anyHuman = false;
  n = 0;

  add(baseline: string, model: string, preference: number, length1: number, length2: number, judge?: string, human?: number): void {
    this.baseline.push(this.models.of(baseline));
    this.model.push(this.models.of(model));
    this.preference.push(preference);
    this.length1.push(length1);
    this.length2.push(length2);
    this.human.push(human ?? NaN);
    if (human !== undefined && human === human) this.anyHuman = true;
    if (judge !== undefined) this.judges.of(judge);
    this.n++;
  }

  build(): PreferenceRows {
    const rows: PreferenceRows = {
      kind: 'preference', models: this.models.names, judges: this.judges.names, invalid: this.invalidVerdicts,
      baseline: this.baseline.done(), model: this.model.done(), preference: this.preference.done(),
      length1: this.length1.done(), length2: this.length2.done(),
    };
    if (this.anyHuman) rows.human = this.human.done();
    return rows;
  }
}

/** Pairwise verdicts: two-order pairs or one-order battles. */
export class PairRowsBuilder extends BuilderBase {
  readonly questions = new Interner();
  private readonly a = ints();
  private readonly b = ints();
  private readonly outcome = floats();
  private readonly g1 = new Column((v) => Int8Array.from(v));
  private readonly g2 = new Column((v) => Int8Array.from(v));
  private twoOrder = false;
  private readonly question = ints();
  private readonly turn = ints();
  private readonly judge = ints();
  private readonly lengthA = floats();
  private readonly lengthB = floats();
  private readonly weight = floats();
  private readonly order = new Column((v) => Int8Array.from(v));
  private weighted = false;
  private ordered = false;
  private readonly category = ints();
  readonly categories = new Interner();
  n = 0;

  /**
   * Adds a valid verdict between a and b: `outcome` is a's score; `orders` the two orders'
   * verdicts (1 = a, 2 = b, 0 = tie) of a two-order file; `weight` the battles the verdict
   * counts for; `order` which answer was shown first (1 a's, 2 b's) when each order is a row.
   */
  add(a: string, b: string, outcome: number, o: { question: string; turn: number; judge: string; orders?: [number, number]; lengthA?: number; lengthB?: number; weight?: number; order?: 1 | 2; category?: string }): void {
    this.a.push(this.models.of(a));
    this.b.push(this.models.of(b));
    this.outcome.push(outcome);
    if (o.orders) this.twoOrder = true;
    this.g1.push(o.orders?.[0] ?? -1);
    this.g2.push(o.orders?.[1] ?? -1);
    this.question.push(this.questions.of(o.question));
    this.turn.push(o.turn);
    this.judge.push(this.judges.of(o.judge));
    this.lengthA.push(o.lengthA ?? NaN);
    this.lengthB.push(o.lengthB ?? NaN);
    this.weight.push(o.weight ?? 1);
    if (o.weight !== undefined && o.weight !== 1) this.weighted = true;
    this.order.push(o.order ?? 0);
    if (o.order !== undefined) this.ordered = true;
    this.category.push(o.category ? this.categories.of(o.category) : -1);
    this.n++;
  }

  build(): PairRows {
    const rows: PairRows = {
      kind: 'pair', models: this.models.names, judges: this.judges.names, invalid: this.invalidVerdicts,
      a: this.a.done(), b: this.b.done(), outcome: this.outcome.done(),
      question: this.question.done(), questions: this.questions.names, turn: this.turn.done(), judge: this.judge.done(),
      lengthA: this.lengthA.done(), lengthB: this.lengthB.done(),
    };
    if (this.twoOrder) { rows.g1 = this.g1.done(); rows.g2 = this.g2.done(); }
    if (this.weighted) rows.weight = this.weight.done();
    if (this.ordered) rows.order = this.order.done();
    if (this.categories.names.length) { rows.category = this.category.done(); rows.categories = this.categories.names; }
    return rows;
  }
}

/**
 * The rows at idx, in that order (the set's gatherSet calls this for its judge rows: --where,
 * compare's alignment). Models without a row among them are dropped (a filter to one model leaves
 * one model); the invalid verdicts stay the whole file's, as they are in no row.
 */
export function gatherJudgeRows(rows: JudgeRows, idx: Uint32Array): JudgeRows {
  return compactModels(gatherRows(rows, idx));
}

function gatherRows(rows: JudgeRows, idx: Uint32Array): JudgeRows {
  const g = <T extends Int32Array | Float64Array | Int8Array>(a: T): T => {
    const out = new (a.constructor as { new (n: number): T })(idx.length);
    for (let i = 0; i < idx.length; i++) out[i] = a[idx[i]];
    return out;
  };
  switch (rows.kind) {
    case 'judged':
      return {
        ...rows, model: g(rows.model), question: g(rows.question), turn: g(rows.turn), score: g(rows.score),
        ...(rows.category ? { category: g(rows.category) } : {}), ...(rows.human ? { human: g(rows.human) } : {}),
      };
    case 'preference':
      return {
        ...rows, baseline: g(rows.baseline), model: g(rows.model), preference: g(rows.preference),
        length1: g(rows.length1), length2: g(rows.length2), ...(rows.human ? { human: g(rows.human) } : {}),
      };
    case 'pair':
      return {
        ...rows, a: g(rows.a), b: g(rows.b), outcome: g(rows.outcome), question: g(rows.question), turn: g(rows.turn),
        judge: g(rows.judge), lengthA: g(rows.lengthA), lengthB: g(rows.lengthB),
        ...(rows.g1 && rows.g2 ? { g1: g(rows.g1), g2: g(rows.g2) } : {}),
        ...(rows.weight ? { weight: g(rows.weight) } : {}), ...(rows.order ? { order: g(rows.order) } : {}),
        ...(rows.category ? { category: g(rows.category) } : {}),
      };
  }
}

/** The rows with only the models they name, renumbered in their first-seen order. */
export function compactModels<T extends JudgeRows>(rows: T): T {
  const used = new Uint8Array(rows.models.length);
  const columns: Int32Array[] = rows.kind === 'judged' ? [rows.model] : rows.kind === 'preference' ? [rows.model, rows.baseline] : [rows.a, rows.b];
  for (const c of columns) for (let i = 0; i < c.length; i++) used[c[i]] = 1;
  if (used.every((u) => u === 1)) return rows;
  return compacted(rows, used) as T;
}

function compacted(rows: JudgeRows, used: Uint8Array): JudgeRows {
  const to = new Int32Array(rows.models.length).fill(-1);
  const models: string[] = [];
  const byModel: number[] = [];
  rows.models.forEach((m, k) => { if (used[k]) { to[k] = models.length; models.push(m); byModel.push(rows.invalid.byModel[k] ?? 0); } });
  const remap = (c: Int32Array) => c.map((k) => to[k]);
  const invalid = { ...rows.invalid, byModel };
  switch (rows.kind) {
    case 'judged': return { ...rows, models, invalid, model: remap(rows.model) };
    case 'preference': return { ...rows, models, invalid, model: remap(rows.model), baseline: remap(rows.baseline) };
    case 'pair': return { ...rows, models, invalid, a: remap(rows.a), b: remap(rows.b) };
  }
}

/** Rows of the set (the set's n): one per valid verdict. */
export function judgeRowCount(rows: JudgeRows): number {
  switch (rows.kind) {
    case 'judged': return rows.score.length;
    case 'preference': return rows.preference.length;
    case 'pair': return rows.outcome.length;
  }
}
