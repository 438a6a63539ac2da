// Data preparation in the webview: typed columns however they travelled, rows of the table and the
// stepper. ROC thinning and bin lookup live in src/common/curves.ts (the charts use them in the
// panel and in the CLI's figures); what the scoring worker computes too (histogram, scatter
// decimation, correctness counts) lives in src/common/chartData.ts. Pure functions (unit-tested).
import type { InstanceColumns, Report } from '../../src/core/types';
import { sortIndicesByKey } from './tableModel';

export { binAt, decimateCurve } from '../../src/common/curves';

type NumericArrayCtor =
  | Float64ArrayConstructor | Uint8ArrayConstructor | Int16ArrayConstructor | Int32ArrayConstructor | Uint32ArrayConstructor;

/**
 * Typed arrays survive VS Code's postMessage (engines.vscode >= 1.57 transfers them as buffers), but
 * a message that went through JSON somewhere (an old host, a test double) holds arrays or
 * {"0": x, "1": y} objects instead, with NaN turned into null. Accept all three.
 */
export function toTyped<T extends NumericArrayCtor>(ctor: T, value: unknown): InstanceType<T> {
  if (value instanceof ctor) return value as InstanceType<T>;
  if (ArrayBuffer.isView(value)) return new ctor(value as unknown as ArrayLike<number>) as InstanceType<T>;
  const list: unknown[] = Array.isArray(value)
    ? value
    : value && typeof value === 'object'
      ? Object.keys(value).sort((a, b) => Number(a) - Number(b)).map((k) => (value as Record<string, unknown>)[k])
      : [];
  const out = new ctor(list.length) as InstanceType<T>;
  const fill = ctor === Float64Array ? NaN : 0;
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    out[i] = typeof v === 'number' ? v : fill;
  }
  return out;
}

/** Restores typed per-instance columns on a report however it travelled. */
export function normalizeReport(report: Report): Report {
  const inst = report.instances;
  if (inst) {
    const fixed: InstanceColumns = {
      lines: toTyped(Uint32Array, inst.lines),
      value: toTyped(Float64Array, inst.value),
      target: toTyped(Float64Array, inst.target),
      confidence: toTyped(Float64Array, inst.confidence),
      correct: toTyped(Uint8Array, inst.correct),
      bin: toTyped(Int16Array, inst.bin),
      binQuantile: toTyped(Int16Array, inst.binQuantile),
      brier: toTyped(Float64Array, inst.brier),
      gold: toTyped(Int32Array, inst.gold),
      pred: toTyped(Int32Array, inst.pred),
      ids: Array.isArray(inst.ids) ? inst.ids : undefined,
      ...(inst.idNumbers ? { idNumbers: toTyped(Float64Array, inst.idNumbers) } : {}),
    };
    report = { ...report, instances: fixed };
  }
  if (report.dataLines && !(report.dataLines instanceof Uint32Array)) {
    report = { ...report, dataLines: toTyped(Uint32Array, report.dataLines) };
  }
  return report;
}

/** Number of instances with per-instance columns (0 when the report has none). */
export function instanceCount(report: Report): number {
  return report.instances ? report.instances.lines.length : 0;
}

/** Text field `field` of instance `i` (Report.texts.values is row-major: values[i][field]). */
export function instanceText(texts: Report['texts'], i: number, field: number): string {
  const row = texts?.values[i];
  const value = row ? row[field] : undefined;
  return typeof value === 'string' ? value : value == null ? '' : String(value);
}

/** Indices of misclassified instances in file order: a known gold and prediction that differ. */
export function misclassifiedIndices(inst: InstanceColumns): Uint32Array {
  const n = inst.correct.length;
  let count = 0;
  for (let i = 0; i < n; i++) if (inst.correct[i] === 0 && inst.gold[i] >= 0 && inst.pred[i] >= 0) count++;
  const out = new Uint32Array(count);
  let k = 0;
  for (let i = 0; i < n; i++) if (inst.correct[i] === 0 && inst.gold[i] >= 0 && inst.pred[i] >= 0) out[k++] = i;
  return out;
}

/** The order the stepper walks the misclassified examples in. */
export type StepOrder = 'file' | 'confident';

/**
 * The misclassified instances in `order`: file order, or the most confident mistakes first (binary:
 * the rows furthest on the wrong side of the threshold, |score - label| descending; otherwise the
 * model's confidence in its wrong answer, descending), ties in file order.
 */
export function misclassifiedInOrder(report: Report, order: StepOrder): Uint32Array {
  const inst = report.instances;
  if (!inst) return new Uint32Array(0);
  const wrong = misclassifiedIndices(inst);
  if (order === 'file' || wrong.length < 2) return wrong;
  const keys = new Float64Array(wrong.length);
  for (let j = 0; j < wrong.length; j++) {
    const i = wrong[j];
    const k = report.kind === 'binary' ? Math.abs(inst.value[i] - inst.target[i]) : inst.confidence[i];
    keys[j] = Number.isFinite(k) ? -k : NaN; // ascending on -k: highest first, unknown last
  }
  const byKey = sortIndicesByKey(keys, false);
  const out = new Uint32Array(wrong.length);
  for (let j = 0; j < wrong.length; j++) out[j] = wrong[byKey[j]];
  return out;
}
