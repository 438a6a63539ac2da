// AlpacaEval annotations (`results/<model>/<annotator>/annotations.json`, written by
// alpaca_eval/main.py with DataFrame.to_json(orient="records")): a JSON array of records with
// instruction, output_1 and generator_1 (the baseline), output_2 and generator_2 (the model
// evaluated), dataset, annotator, preference, and the annotator's price_per_example and
// time_per_example. preference is 1 (output_1 better), 2 (output_2 better), a fraction in [1, 2]
// for weighted annotators, 1.5 or (older versions) 0 for a draw, and null when the annotator gave
// none (alpaca_eval/metrics/helpers.py drops anything outside [1, 2]). JSON Lines work too.
import type { HarnessAdapter } from '../formats/adapters';
import type { FileInput, FormatContext } from '../formats/context';
import { sourceOf } from '../formats/context';
import { forEachJsonRecord } from '../formats/jsonl';
import type { ParseResult, RowProblem } from '../types';
import type { SampleRecord } from '../samples/record';
import { PreferenceRowsBuilder } from './rows';
import { clipText, codePoints, fatalResult, fieldProblem, isObject, judgeName, judgeParse } from './readerCommon';

/** AlpacaEval's records: generator_1 and output_1 (or a preference) near the start. */
export function isAlpacaEvalAnnotations(_path: string, head: string): boolean {
  return /"generator_1"\s*:/.test(head) && (/"output_1"\s*:/.test(head) || /"preference"\s*:/.test(head));
}

export const alpacaEvalAdapter: HarnessAdapter = {
  format: 'alpacaeval',
  detect: isAlpacaEvalAnnotations,
  parse: parseAlpacaEval,
};

const TEXTS = ['instruction', 'generator_1', 'output_1', 'generator_2', 'output_2', 'preference', 'dataset'];

export function parseAlpacaEval(input: FileInput, ctx: FormatContext): ParseResult {
  const b = new PreferenceRowsBuilder('no preference in [1, 2] (null, NaN or out of range: the annotator gave none), which AlpacaEval drops too');
  const problems: RowProblem[] = [];
  const records: SampleRecord[] = [];
  const seen = new Map<string, number>();
  let skipped = 0;
  const scan = forEachJsonRecord(sourceOf(input), (value, span) => {
    const line = span.line;
    if (!isObject(value)) { problems.push({ line, severity: 'error', code: 'json-parse', message: `Line ${line}: an annotation is a JSON object; this is ${Array.isArray(value) ? 'an array' : typeof value}. It is left out.` }); skipped++; return; }
    const g1 = typeof value.generator_1 === 'string' && value.generator_1 ? value.generator_1 : undefined;
    const g2 = typeof value.generator_2 === 'string' && value.generator_2 ? value.generator_2 : undefined;
    if (g1 === undefined) { problems.push(fieldProblem(line, 'generator_1', 'the baseline\'s name', value.generator_1)); skipped++; return; }
    if (g2 === undefined) { problems.push(fieldProblem(line, 'generator_2', 'the evaluated model\'s name', value.generator_2)); skipped++; return; }
    const raw = value.preference;
    if (raw !== null && raw !== undefined && typeof raw !== 'number') {
      problems.push(fieldProblem(line, 'preference', 'a number in [1, 2] (or 0 for a draw)', raw));
      skipped++;
      return;
    }
    const instruction = typeof value.instruction === 'string' ? value.instruction : '';
    // The instruction is the sample: the same instruction in another model's annotations is the
    // same sample (compare pairs on it); within one model's file it appears once.
    const key = `${g2}\u0000${g1}\u0000${instruction}`;
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push({ line, severity: 'warning', code: 'duplicate-id', message: `Line ${line}: ${g2} against ${g1} on this instruction was annotated on line ${first} already; each instruction counts once, so this annotation is left out.` });
      skipped++;
      return;
    }
    seen.set(key, line);
    const m = b.models.of(g2);
    b.models.of(g1);
    // AlpacaEval's backward compatibility: 0 is a draw (1.5); anything outside [1, 2] is no preference.
    const p = raw === 0 ? 1.5 : raw;
    if (typeof p !== 'number' || !(p >= 1 && p <= 2)) { b.invalid(m, line); return; }
    const out1 = typeof value.output_1 === 'string' ? value.output_1 : undefined;
    const out2 = typeof value.output_2 === 'string' ? value.output_2 : undefined;
    const judge = judgeName(value.annotator);
    const human = typeof value.human_preference === 'number' && value.human_preference >= 1 && value.human_preference <= 2 ? value.human_preference : undefined;
    b.add(g1, g2, p, out1 === undefined ? NaN : codePoints(out1), out2 === undefined ? NaN : codePoints(out2), judge, human);
    records.push({
      sample_id: instruction,
      line,
      model_id: g2,
      input: { raw: instruction },
      output: { raw: [out2 ?? ''] },
      judgement: { judge, score: p, verdict: String(raw) },
      metadata: {
        generator_1: g1, output_1: out1 ?? '', ...(typeof value.dataset === 'string' ? { dataset: value.dataset } : {}),
      },
    });
  }, ctx.progress);
  if (scan.fatal) return fatalResult('alpacaeval', scan.fatal, scan.problems);
  problems.unshift(...scan.problems);
  const rows = b.build();
  const models = [...new Set(records.map((r) => r.model_id!))];
  // Several models in one file (a concatenation of annotations): the instruction alone no longer names a sample.
  if (models.length > 1) for (const r of records) r.sample_id = `${r.model_id}/${r.sample_id}`;
  return judgeParse('alpacaeval', records, rows, {
    fields: TEXTS,
    of: (r) => [clipText(r.input?.raw), r.metadata?.generator_1 ?? '', clipText(r.metadata?.output_1), r.model_id ?? '', clipText(r.output?.raw?.[0]), r.judgement?.verdict ?? '', r.metadata?.dataset ?? ''],
  }, { problems, skipped: skipped + scan.badRecords, ...(models.length === 1 ? { sourceModel: models[0] } : {}) });
}
