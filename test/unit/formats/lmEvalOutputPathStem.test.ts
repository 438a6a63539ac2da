// lm-eval run with `--output_path truthfulqa_gen_neo125.json` names its results file
// path.with_name(f"{stem}_{date_id}.json") (lm_eval/loggers/evaluation_tracker.py) and writes the
// samples beside it as samples_<task>_<date_id>.jsonl: the timestamp pairs the two, whatever stands
// before it. The fixture is the real truthfulqa_gen run of EleutherAI/gpt-neo-125M (--limit 20).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resultsPathFor } from '../../../src/core/formats/lmEvalResults';
import { scoreFile } from '../../../src/core/score';
import { REAL } from '../realData';

const DIR = join(REAL, 'lm-eval', 'gpt-neo-125M-truthfulqa_gen');
const TS = '2025-05-31T14-30-51.983293';
const SAMPLES = join(DIR, `samples_truthfulqa_gen_${TS}.jsonl`);
const RESULTS_NAME = `truthfulqa_gen_neo125_${TS}.json`;
const RESULTS = JSON.parse(readFileSync(join(DIR, RESULTS_NAME), 'utf8'));

describe('an lm-eval results file named <stem>_<timestamp>.json', () => {
  it('is the results file of the samples file with the same timestamp', () => {
    const names = [`samples_truthfulqa_gen_${TS}.jsonl`, RESULTS_NAME, 'truthfulqa_gen_neo125_2025-05-31T13-51-32.759677.json'];
    expect(resultsPathFor(`/r/samples_truthfulqa_gen_${TS}.jsonl`, TS, { list: () => names })).toBe(`/r/${RESULTS_NAME}`);
  });

  it('prefers results_<ts>.json and results*<ts>.json, and never takes another samples file', () => {
    const list = (names: string[]) => ({ list: () => names });
    expect(resultsPathFor(`/r/samples_a_${TS}.jsonl`, TS, list([`zz_${TS}.json`, `results_${TS}.json`]))).toBe(`/r/results_${TS}.json`);
    expect(resultsPathFor(`/r/samples_a_${TS}.jsonl`, TS, list([`aa_${TS}.json`, `results_m-colon-x_${TS}.json`]))).toBe(`/r/results_m-colon-x_${TS}.json`);
    // lm-eval 0.4.2 wrote samples as samples_<task>_<ts>.json: not a results file.
    expect(resultsPathFor(`/r/samples_a_${TS}.json`, TS, list([`samples_b_${TS}.json`]))).toBe(`/r/results_${TS}.json`);
  });

  it('score shows the figures it reports and the model it names', () => {
    const r = scoreFile(SAMPLES, { bootstrap: 0 });
    expect(r.sourceModel).toBe('EleutherAI/gpt-neo-125M');
    expect(r.reported?.bleu_acc).toBe(RESULTS.results.truthfulqa_gen['bleu_acc,none']);
    expect(r.reported?.rougeL_max).toBe(RESULTS.results.truthfulqa_gen['rougeL_max,none']);
    // The run's --limit 20 is all lm-eval scored ("effective": 20): the figures are compared, not a subset.
    expect(RESULTS['n-samples'].truthfulqa_gen.effective).toBe(20);
    expect(r.reportedOn).toBeUndefined();
  });
});
