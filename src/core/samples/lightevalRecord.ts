// One lighteval details row (JSON Lines or a JSON array of Details, read by lightevalDetails.ts) as
// the shared SampleRecord, the way the lighteval adapter scores it (src/core/formats/lighteval.ts):
// a multiple-choice row's choices with the softmax of their log-probabilities (the first
// len(choices) of model_response.logprobs; PMI tasks append the unconditioned ones), the gold at
// doc.gold_index; a generation's texts and the answer scored. Every metric of the row by name.
import { readDetail } from '../formats/lightevalDetails';
import { softmax } from './toParse';
import { locateAnswer } from './answerSpan';
import type { SampleRecord } from './record';

/** lighteval's row as a record; undefined when the value is not a details row. */
export function lightevalSampleRecord(value: unknown, line: number, id?: string): SampleRecord | undefined {
  const read = readDetail(value);
  if ('problem' in read) return undefined;
  const row = read.row;
  const record: SampleRecord = {
    sample_id: row.id ?? id ?? `line ${line}`, line,
    ...(row.taskName ? { evaluation_name: row.taskName } : {}),
    input: { raw: row.query, ...(row.choices.length ? { choices: row.choices } : {}), reference: row.golds.filter((g) => g < row.choices.length).map((g) => row.choices[g]) },
  };
  if (Object.keys(row.metrics).length) record.metrics = row.metrics;
  const k = row.choices.length;
  // As the adapter's choiceReady: one log-probability a choice, or two (PMI).
  if (k >= 2 && row.logprobs && (row.logprobs.length === k || row.logprobs.length === 2 * k) && !row.generative) {
    const logprobs = row.logprobs.slice(0, k);
    let pred = 0;
    for (let j = 1; j < k; j++) if (logprobs[j] > logprobs[pred]) pred = j; // the first of equal maxima, as numpy
    record.choiceProbs = softmax(logprobs);
    record.predIndex = pred;
    record.answer = row.choices[pred];
    // Several golds: the one the model ranks highest, as the adapter scores it.
    record.goldIndex = row.golds.includes(pred) ? pred : row.golds.reduce((best, g) => (logprobs[g] > logprobs[best] ? g : best), row.golds[0]);
    record.metadata = { 'log-probabilities': logprobs.map(String).join(', ') };
  } else if (row.texts.length) {
    record.output = { raw: row.texts };
    record.answer = row.texts[0];
  }
  const acc = row.metrics.acc ?? row.metrics.exact_match ?? row.metrics.em;
  if (acc === 0 || acc === 1) record.evaluation = { score: acc, is_correct: acc === 1 };
  const at = locateAnswer(record);
  if (at) record.answer_at = at;
  return record;
}
