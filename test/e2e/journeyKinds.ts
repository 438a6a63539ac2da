// The input kinds the journey suite (journey.e2e.ts) walks, each placed in its own folder of the
// workspace as two runs (run-a, run-b: a baseline and a candidate) so that "Compare with…" and the
// leaderboard have something to compare. Real files where the repository has them
// (test/fixtures/real, examples), else files made in the harness's shape. A new format adds a row.
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { writeBankChurn } from '../unit/slices/bankChurnFixture';

export interface JourneyKind {
  name: string;
  /** Puts the kind's runs under `folder`; returns the baseline (a), the candidate (b) and a RAFT data folder. */
  place(folder: string): { a: string; b?: string; raftData?: string };
  /** A column of the file's own to group and cluster by (default: the first the page offers). */
  ownColumn?: string;
  /** A search by a column that matches some rows. */
  columnQuery: string;
  /** A summary of reported figures (no samples). */
  summary?: boolean;
  /** The folder whose leaderboard to show, below the kind's folder (RAFT: the folder of its run folders). */
  boardFolder?: string;
}

const root = (...p: string[]) => join(PROJECT_ROOT, ...p);

/** The same file as run-a and run-b (a second run with other numbers where `candidate` makes one). */
function twoRuns(folder: string, source: string, name = basename(source), candidate?: (text: string) => string): { a: string; b: string } {
  const a = join(folder, 'run-a', name);
  const b = join(folder, 'run-b', name);
  mkdirSync(join(folder, 'run-a'), { recursive: true });
  mkdirSync(join(folder, 'run-b'), { recursive: true });
  copyFileSync(source, a);
  if (candidate) writeFileSync(b, candidate(readFileSync(source, 'utf8')));
  else copyFileSync(source, b);
  return { a, b };
}

/** A binary table of scores with an own column (region_own), written as CSV, TSV or JSON Lines. */
function binaryTable(sep: ',' | '\t' | 'jsonl', shift: number): string {
  const rows: string[] = sep === 'jsonl' ? [] : [['id', 'score', 'label', 'site'].join(sep)];
  for (let i = 0; i < 240; i++) {
    const s = ((i * 7919 + shift * 131) % 1000) / 1000;
    const y = ((i * 104729) % 997) / 997 < s ? 1 : 0;
    const site = ['alpha', 'beta', 'gamma', 'delta'][i % 4];
    rows.push(sep === 'jsonl' ? JSON.stringify({ id: `r${i}`, score: s, label: y, site }) : [`r${i}`, s.toFixed(3), String(y), site].join(sep));
  }
  return rows.join('\n') + '\n';
}

/** ALMANACS: the candidate's probabilities pulled towards 0.5. */
function almanacsCandidate(text: string): string {
  return text.split('\n').filter(Boolean).map((line) => {
    const o = JSON.parse(line);
    if (o.prediction && typeof o.prediction === 'object') o.prediction.probability = Math.round((0.5 + 0.6 * (o.prediction.probability - 0.5)) * 1e4) / 1e4;
    return JSON.stringify(o);
  }).join('\n') + '\n';
}

/** JSON Lines rewritten record by record (a judge file's second run: other verdicts on the same samples). */
function eachRecord(text: string, change: (o: Record<string, unknown>, k: number) => void): string {
  return text.split('\n').filter(Boolean).map((line, k) => {
    const o = JSON.parse(line) as Record<string, unknown>;
    change(o, k);
    return JSON.stringify(o);
  }).join('\n') + '\n';
}

export const JOURNEY_KINDS: JourneyKind[] = [
  {
    name: 'folktexts',
    place: (f) => {
      const a = join(f, 'run-a', 'Mistral.test_predictions.csv');
      const b = join(f, 'run-b', 'Llama.test_predictions.csv');
      mkdirSync(join(f, 'run-a'), { recursive: true });
      mkdirSync(join(f, 'run-b'), { recursive: true });
      copyFileSync(root('examples/folktexts/Mistral-7B-sim__ACSIncome__-1/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv'), a);
      copyFileSync(root('examples/folktexts/Llama-3-8B-sim__ACSIncome__-1/Llama-3-8B-sim__ACSIncome__-1.test_predictions.csv'), b);
      return { a, b };
    },
    columnQuery: 'label = 1',
  },
  {
    name: 'raft',
    place: (f) => {
      cpSync(root('examples/raft/data'), join(f, 'data'), { recursive: true });
      cpSync(root('examples/raft/run-1'), join(f, 'runs', 'run-1'), { recursive: true });
      cpSync(root('examples/raft/run-2'), join(f, 'runs', 'run-2'), { recursive: true });
      return { a: join(f, 'runs', 'run-1', 'bank_intents', 'predictions.csv'), b: join(f, 'runs', 'run-2', 'bank_intents', 'predictions.csv'), raftData: 'k-raft/data' };
    },
    // RAFT's runs are <runs>/<run>/<task>/predictions.csv: the board of <runs> has a row per run.
    boardFolder: 'runs',
    columnQuery: 'correct = 0',
  },
  {
    name: 'almanacs',
    place: (f) => twoRuns(f, root('examples/almanacs/moral_dilemmas.predictions.jsonl'), undefined, almanacsCandidate),
    columnQuery: 'question ~ /teacher/',
  },
  {
    name: 'lm-eval',
    place: (f) => twoRuns(f, root('examples/lm-eval/sim-model/samples_prime_mc_2026-11-30T09-00-00.000000.jsonl')),
    columnQuery: 'correct = 1',
  },
  {
    name: 'inspect-json',
    place: (f) => twoRuns(f, root('test/fixtures/inspect/issue17/model_graded.json')),
    columnQuery: 'correct = 1',
  },
  {
    name: 'inspect-eval',
    place: (f) => twoRuns(f, root('test/fixtures/inspect/epochs.eval')),
    columnQuery: 'correct = 1',
  },
  {
    name: 'parquet',
    // A bank-churn table with columns of its own (geography, gender, age) and an ID (customer_id).
    place: (f) => {
      const [a, b] = ['run-a', 'run-b'].map((side) => {
        mkdirSync(join(f, side), { recursive: true });
        const made = writeBankChurn(join(f, side), 600);
        rmSync(made.csv);
        return made.parquet;
      });
      return { a, b };
    },
    ownColumn: 'geography',
    columnQuery: 'correct = 1',
  },
  {
    name: 'generic-csv',
    place: (f) => {
      mkdirSync(join(f, 'run-a'), { recursive: true });
      mkdirSync(join(f, 'run-b'), { recursive: true });
      writeFileSync(join(f, 'run-a', 'scores.csv'), binaryTable(',', 0));
      writeFileSync(join(f, 'run-b', 'scores.csv'), binaryTable(',', 3));
      return { a: join(f, 'run-a', 'scores.csv'), b: join(f, 'run-b', 'scores.csv') };
    },
    ownColumn: 'site',
    columnQuery: 'site = beta',
  },
  {
    name: 'generic-tsv',
    place: (f) => {
      mkdirSync(join(f, 'run-a'), { recursive: true });
      mkdirSync(join(f, 'run-b'), { recursive: true });
      writeFileSync(join(f, 'run-a', 'scores.tsv'), binaryTable('\t', 0));
      writeFileSync(join(f, 'run-b', 'scores.tsv'), binaryTable('\t', 5));
      return { a: join(f, 'run-a', 'scores.tsv'), b: join(f, 'run-b', 'scores.tsv') };
    },
    ownColumn: 'site',
    columnQuery: 'site = gamma',
  },
  {
    name: 'generic-jsonl',
    place: (f) => {
      mkdirSync(join(f, 'run-a'), { recursive: true });
      mkdirSync(join(f, 'run-b'), { recursive: true });
      writeFileSync(join(f, 'run-a', 'scores.jsonl'), binaryTable('jsonl', 0));
      writeFileSync(join(f, 'run-b', 'scores.jsonl'), binaryTable('jsonl', 7));
      return { a: join(f, 'run-a', 'scores.jsonl'), b: join(f, 'run-b', 'scores.jsonl') };
    },
    ownColumn: 'site',
    columnQuery: 'site = delta',
  },
  {
    name: 'confidence-csv',
    place: (f) => twoRuns(f, root('examples/generic/qa_confidence.csv')),
    columnQuery: 'correct = 0',
  },
  // The harness adapters (issue 26): real files where they are public, else the harness's shape.
  {
    name: 'helm',
    place: (f) => {
      const run = 'mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2';
      for (const side of ['run-a', 'run-b']) cpSync(root('test/fixtures/real/helm', run), join(f, side, run), { recursive: true });
      return { a: join(f, 'run-a', run, 'per_instance_stats.json'), b: join(f, 'run-b', run, 'per_instance_stats.json') };
    },
    columnQuery: 'correct = 1',
  },
  {
    name: 'lighteval',
    place: (f) => {
      for (const side of ['run-a', 'run-b']) {
        mkdirSync(join(f, side), { recursive: true });
        copyFileSync(root('test/fixtures/lighteval/arc_challenge_25.parquet'), join(f, side, 'details_arc_challenge_25.parquet'));
      }
      return { a: join(f, 'run-a', 'details_arc_challenge_25.parquet'), b: join(f, 'run-b', 'details_arc_challenge_25.parquet') };
    },
    columnQuery: 'correct = 1',
  },
  {
    name: 'promptfoo',
    place: (f) => twoRuns(f, root('test/fixtures/harness-shape/promptfoo/mixed-results.json'), 'results.json'),
    columnQuery: 'correct = 1',
  },
  {
    name: 'opencompass',
    place: (f) => {
      const tree = 'outputs/default/20240501_120000';
      for (const side of ['run-a', 'run-b']) cpSync(root('test/fixtures/harness-shape/opencompass', tree), join(f, side, tree), { recursive: true });
      const file = (side: string) => join(f, side, tree, 'predictions', 'demo-7b-hf', 'mmlu_demo.json');
      return { a: file('run-a'), b: file('run-b') };
    },
    columnQuery: 'correct = 1',
  },
  {
    name: 'eee',
    place: (f) => twoRuns(f, root('test/fixtures/real/eee/inspect-ai2_arc/9563d156-9b7e-41b9-b50a-6430637937ed_samples.jsonl')),
    columnQuery: 'correct = 1',
  },
  {
    name: 'ragas',
    place: (f) => twoRuns(f, root('test/fixtures/real/ragas/ragas_evaluation_results.csv')),
    columnQuery: 'model',
  },
  // Judge files (issue 27): FastChat MT-Bench single and pair judgments (real), AlpacaEval
  // annotations and arena battles (made in their shape, test/fixtures/judges).
  {
    name: 'mt-bench-single',
    place: (f) => {
      // Each run a folder with its judgments and question.jsonl beside them (the reader's first place
      // for the categories), so the leaderboard of the kind's folder has the runs a level below it.
      for (const side of ['run-a', 'run-b']) {
        mkdirSync(join(f, side), { recursive: true });
        copyFileSync(root('test/fixtures/real/mt-bench/medusa/question.jsonl'), join(f, side, 'question.jsonl'));
        copyFileSync(root('test/fixtures/real/mt-bench/medusa/model_judgment/gpt-4_single.jsonl'), join(f, side, 'gpt-4_single.jsonl'));
      }
      const b = join(f, 'run-b', 'gpt-4_single.jsonl');
      writeFileSync(b, eachRecord(readFileSync(b, 'utf8'), (o) => { if (typeof o.score === 'number' && o.score >= 2) o.score -= 1; }));
      return { a: join(f, 'run-a', 'gpt-4_single.jsonl'), b };
    },
    columnQuery: 'model = vicuna-7b-v1.3',
  },
  {
    name: 'mt-bench-pair',
    place: (f) => twoRuns(f, root('test/fixtures/real/mt-bench/phi-3-pair/gpt-4_pair.jsonl'), undefined,
      (text) => eachRecord(text, (o, k) => { if (k % 3 === 0 && o.g1_winner === 'tie') o.g1_winner = 'model_1'; })),
    columnQuery: 'g1_winner = tie',
  },
  {
    name: 'alpacaeval',
    place: (f) => {
      // Two models against the same baseline on the same instructions: compare pairs them.
      const a = join(f, 'run-a', 'annotations.json');
      const b = join(f, 'run-b', 'annotations.json');
      mkdirSync(join(f, 'run-a'), { recursive: true });
      mkdirSync(join(f, 'run-b'), { recursive: true });
      copyFileSync(root('test/fixtures/judges/alpacaeval/toy-7b/alpaca_eval_gpt4/annotations.json'), a);
      copyFileSync(root('test/fixtures/judges/alpacaeval/toy-13b/alpaca_eval_gpt4/annotations.json'), b);
      return { a, b };
    },
    columnQuery: 'preference = 2',
  },
  {
    name: 'arena',
    place: (f) => twoRuns(f, root('test/fixtures/judges/arena/battles.jsonl'), undefined,
      (text) => eachRecord(text, (o, k) => { if (k % 5 === 0) o.winner = o.winner === 'model_a' ? 'model_b' : o.winner === 'model_b' ? 'model_a' : o.winner; })),
    columnQuery: 'winner = tie',
  },
  {
    name: 'summary',
    place: (f) => twoRuns(f, root('test/fixtures/real/summaries/lighteval/SmolLM2-1.7B-Instruct/results_2026-01-21T03-44-18.458309.json')),
    columnQuery: 'acc',
    summary: true,
  },
];
