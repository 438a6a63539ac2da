#!/usr/bin/env node
// Writes examples/: small, realistic, SYNTHETIC prediction files in every format Eval Lens reads.
// Nothing here comes from a real model or a real data set; a fixed seed makes the output identical
// on every run (`npm run examples`, then `git diff --exit-code examples` checks it).
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 as rng } from './rng.mjs';

// An output folder may be given (the test regenerates into a temp folder and compares).
const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'examples');

const rand = rng(20261130);
const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
const sigmoid = (x) => 1 / (1 + Math.exp(-x));
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const round = (x, d = 6) => Number(x.toFixed(d));

function write(rel, text) {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** RFC 4180 quoting, as pandas writes it. */
function csvField(v) {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
const csvRow = (fields) => fields.map(csvField).join(',');

// ---------------------------------------------------------------- folktexts
// A simulated LLM risk score on an income task: the true log-odds come from a few census-like
// features; the "model" sees them with noise and is overconfident (its logits are stretched).
function folktexts() {
  const rows = [];
  const n = 2000;
  for (let i = 0; i < n; i++) {
    const age = 18 + Math.floor(rand() * 60);
    const school = 10 + Math.floor(rand() * 14);
    const hours = 10 + Math.floor(rand() * 50);
    const logit = -7.2 + 0.04 * age + 0.3 * school + 0.04 * hours;
    const label = rand() < sigmoid(logit) ? 1 : 0;
    const seen = 1.6 * (logit + 0.8 * normal()) + 0.3;
    // Unique row indices of the census table, in the shuffled order of a test split.
    rows.push({ index: i * 797 + Math.floor(rand() * 797), score: round(sigmoid(seen), 7), label, logit });
  }
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  const dir = 'folktexts/Mistral-7B-sim__ACSIncome__-1';
  write(`${dir}/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv`, [',risk_score,label', ...rows.map((r) => `${r.index},${r.score},${r.label}`)].join('\n') + '\n');
  folktextsResults(dir, 'Mistral-7B-sim', rows);
  folktextsRows = rows;

  // A broken file: the rows a user would meet in practice, on known lines.
  const broken = [',risk_score,label', '0,0.81,1', '1,0.12,0', '2,73%,1', '3,abc,0', '4,1.7,1', '5,0.44,2', '6,NaN,0', '7,0.65', '8,0.30,0', '8,0.31,0', '9,0.92,1'];
  write('folktexts/broken/broken.test_predictions.csv', broken.join('\n') + '\n');
}

/** The rows of the first folktexts run (the second run scores the same instances). */
let folktextsRows = [];

// folktexts' own results file, with its key names. The figures are computed here independently of
// the metric core, so the report's "reported vs recomputed" column shows agreement.
function folktextsResults(dir, model, rows) {
  const n = rows.length;
  const s = rows.map((r) => r.score);
  const y = rows.map((r) => r.label);
  const results = {
    accuracy: round(mean(s.map((v, i) => ((v >= 0.5 ? 1 : 0) === y[i] ? 1 : 0)))),
    brier_score_loss: round(mean(s.map((v, i) => (v - y[i]) ** 2))),
    ece: round(eceEqualWidth(s, y, 10)),
    ece_quantile: null,
    log_loss: round(-mean(s.map((v, i) => { const c = Math.min(Math.max(v, 1e-15), 1 - 1e-15); return y[i] ? Math.log(c) : Math.log(1 - c); }))),
    model_name: model,
    n_samples: n,
    roc_auc: round(aucRank(s, y)),
    threshold: 0.5,
  };
  // folktexts writes NaN bare (Python's json); keep one to show that it is read.
  write(`${dir}/results.bench-1337.json`, JSON.stringify(results, null, 4).replace('"ece_quantile": null', '"ece_quantile": NaN') + '\n');
}

function mean(a) { return a.reduce((x, v) => x + v, 0) / a.length; }

function eceEqualWidth(s, y, bins) {
  const sum = new Array(bins).fill(0), hit = new Array(bins).fill(0), cnt = new Array(bins).fill(0);
  s.forEach((v, i) => { const b = Math.min(bins - 1, Math.floor(v * bins)); sum[b] += v; hit[b] += y[i]; cnt[b]++; });
  let e = 0;
  for (let b = 0; b < bins; b++) if (cnt[b]) e += (cnt[b] / s.length) * Math.abs(sum[b] / cnt[b] - hit[b] / cnt[b]);
  return e;
}

/** AUC by average ranks (Mann-Whitney U). */
function aucRank(s, y) {
  const idx = s.map((_, i) => i).sort((a, b) => s[a] - s[b]);
  const rank = new Array(s.length);
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && s[idx[j + 1]] === s[idx[i]]) j++;
    for (let k = i; k <= j; k++) rank[idx[k]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  const pos = y.filter((v) => v === 1).length, neg = y.length - pos;
  const rs = rank.reduce((acc, r, i) => acc + (y[i] ? r : 0), 0);
  return (rs - (pos * (pos + 1)) / 2) / (pos * neg);
}

// ---------------------------------------------------------------- RAFT
// Three RAFT-like tasks with invented texts. Layout as in the RAFT repository: a data folder with
// <task>/train.csv + task.json, and a run folder with <task>/predictions.csv (ID,Label).
const RAFT_TASKS = [
  {
    name: 'support_tweets',
    columns: ['Tweet text'],
    classes: ['complaint', 'no complaint'],
    make: (cls) => cls === 'complaint'
      ? pick(['@AcmeAir my bag is STILL missing, 3 days now. "We\'re on it" they said.', 'Worst. Service. Ever. @ShopCo charged me twice, refund please', '@TelcoUK no signal in the whole town since Monday, what is going on?\nAnyone else?', 'two hours on hold with @BankOne, then cut off. fantastic.'])
      : pick(['@AcmeAir thanks for the upgrade, lovely crew!', 'Reading about the new @ShopCo store opening, looks nice', '@TelcoUK is the 5G map updated for Leeds?', 'Morning all, coffee first, then emails.']),
  },
  {
    name: 'paper_safety_relevance',
    columns: ['Title', 'Abstract Note'],
    classes: ['TAI safety research', 'non-TAI safety research'],
    make: (cls) => cls === 'TAI safety research'
      ? [pick(['Reward hacking in learned optimisers', 'Scalable oversight, with "debate"', 'Interpretability of goal-directed agents']), pick(['We study when agents exploit misspecified rewards, and propose checks.', 'A protocol where two models argue, and a judge decides; we test it on QA, math, and code.', 'Probing activations for goals.\nResults are mixed.'])]
      : [pick(['Faster sparse matrix kernels', 'A survey of image segmentation', 'Crop yield from satellite data']), pick(['We speed up SpMV by 2x on GPUs.', 'We review 120 papers, 2015-2021.', 'Using "NDVI" and rainfall, we predict yields.'])],
  },
  {
    name: 'bank_intents',
    columns: ['Query'],
    classes: ['card_arrival', 'exchange_rate', 'lost_or_stolen_card', 'top_up_failed'],
    make: (cls) => ({
      card_arrival: pick(['When will my new card arrive?', 'Still waiting for my card, ordered 10 days ago', 'how long does delivery of the card take']),
      exchange_rate: pick(['What rate do you use for EUR -> GBP?', 'Is the exchange rate fixed, or does it change?', 'why did I get a bad rate, "interbank" my foot']),
      lost_or_stolen_card: pick(['I lost my card at the station', 'Someone stole my wallet, block the card!', 'card gone, what do I do']),
      top_up_failed: pick(['My top-up failed but money left my account', 'top up declined, why?', 'Tried to add £50, it says "failed"']),
    })[cls],
  },
];

/** Gold labels of each RAFT task (the second run answers the same questions). */
const raftGold = new Map();

function raft() {
  for (const [t, task] of RAFT_TASKS.entries()) {
    const header = [...task.columns, 'Label', 'ID'];
    const train = [csvRow(header)];
    const gold = [];
    for (let id = 0; id < 50; id++) {
      const cls = task.classes[Math.floor(rand() * task.classes.length)];
      const text = task.make(cls);
      train.push(csvRow([...(Array.isArray(text) ? text : [text]), cls, id]));
      gold.push(cls);
    }
    raftGold.set(task.name, gold);
    write(`raft/data/${task.name}/train.csv`, train.join('\n') + '\n');
    write(`raft/data/${task.name}/task.json`, JSON.stringify({ name: task.name, description: 'Synthetic example task made by scripts/make-examples.mjs.', data_columns: [...task.columns, 'ID'], label_columns: { Label: task.classes } }) + '\n');
    // The "model": right 80% (task 0), 65%, 55% of the time; wrong answers lean to one class.
    const skill = [0.8, 0.65, 0.55][t];
    const preds = ['ID,Label'];
    for (let id = 0; id < 50; id++) {
      const right = rand() < skill;
      const wrong = task.classes.filter((c) => c !== gold[id]);
      preds.push(csvRow([id, right ? gold[id] : wrong[rand() < 0.7 ? 0 : Math.floor(rand() * wrong.length)]]));
    }
    // A few test-split IDs: no gold label, counted as unlabeled.
    for (let id = 50; id < 55; id++) preds.push(csvRow([id, pick(task.classes)]));
    write(`raft/run-1/${task.name}/predictions.csv`, preds.join('\n') + '\n');
  }
}

// ---------------------------------------------------------------- ALMANACS
// A predictor's P(Yes) for scenario questions against the model's true P(Yes), which ALMANACS'
// synthetic model computes as sigmoid(sum_i w_i s_i) over five placeholder scores.
function almanacs() {
  const w = [1.2, -0.8, 0.5, 2.0, -1.5];
  const roles = ['a nurse', 'a city planner', 'an AI assistant', 'a ship captain', 'a teacher'];
  const acts = ['report a colleague', 'delay the launch', 'share private data', 'take the risky shortcut', 'ask for help'];
  const lines = [];
  for (let i = 0; i < 120; i++) {
    const s = Array.from({ length: 5 }, () => rand() * 2 - 1);
    const truth = sigmoid(s.reduce((acc, v, k) => acc + v * w[k], 0));
    const guess = Math.min(0.99, Math.max(0.01, sigmoid(Math.log(truth / (1 - truth)) * 0.7 + 0.4 * normal())));
    const question = `Imagine you are ${pick(roles)}. Would you ${pick(acts)} if it saved ${Math.floor(rand() * 90) + 10} hours of work?`;
    const reasoning = guess > 0.5 ? 'Similar questions with a high benefit got mostly Yes answers.' : 'The model tends to refuse actions with a privacy cost.';
    const prediction = { reasoning, probability: round(guess, 4) };
    // Half the predictors return the JSON as text, as a language model would.
    const record = i % 2
      ? { question_id: `moral_dilemmas-${i}`, question, prediction: `Here is my answer:\n${JSON.stringify(prediction)}`, answer_prob: round(truth, 6) }
      : { question_id: `moral_dilemmas-${i}`, question, prediction, answer_prob: round(truth, 6) };
    lines.push(JSON.stringify(record));
  }
  write('almanacs/moral_dilemmas.predictions.jsonl', lines.join('\n') + '\n');
}

// ---------------------------------------------------------------- lm-evaluation-harness
// A --log_samples file of a 4-way multiple-choice task, in lm-eval 0.4's layout.
function lmEval() {
  const lines = [];
  for (let doc = 0; doc < 60; doc++) {
    const gold = Math.floor(rand() * 4);
    const ll = [0, 1, 2, 3].map((k) => -4 - 3 * rand() + (k === gold ? 2.2 * rand() + 0.6 : 0));
    const greedy = ll.indexOf(Math.max(...ll));
    const question = `Q${doc}: Which of these is a prime number?`;
    const choices = [0, 1, 2, 3].map((k) => String(k === gold ? [2, 3, 5, 7][doc % 4] : [4, 6, 8, 9][(doc + k) % 4]));
    lines.push(JSON.stringify({
      doc_id: doc,
      doc: { question, choices, answer: gold },
      target: String(gold),
      arguments: Object.fromEntries(choices.map((c, k) => [`gen_args_${k}`, { arg_0: `${question}\nAnswer:`, arg_1: ` ${c}` }])),
      resps: ll.map((v, k) => [[v.toFixed(4), String(k === greedy)]]),
      filtered_resps: ll.map((v, k) => [v.toFixed(4), String(k === greedy)]),
      filter: 'none',
      metrics: ['acc'],
      acc: greedy === gold ? 1.0 : 0.0,
    }));
  }
  write('lm-eval/sim-model/samples_prime_mc_2026-11-30T09-00-00.000000.jsonl', lines.join('\n') + '\n');
}

// ---------------------------------------------------------------- generic
// A QA system's confidence in its own answers and whether they were right (the HMR setting).
function generic() {
  const rows = ['id,confidence,correct'];
  for (let i = 0; i < 300; i++) {
    const skill = rand();
    const correct = rand() < 0.35 + 0.5 * skill ? 1 : 0;
    const conf = Math.min(1, Math.max(0, 0.55 + 0.4 * skill + 0.1 * normal()));
    rows.push(`q${i},${round(conf, 4)},${correct}`);
  }
  write('generic/qa_confidence.csv', rows.join('\n') + '\n');
}

// ---------------------------------------------------------------- second runs (for comparison)
// A second model on the same instances, from a random stream of its own so the first runs' files
// stay exactly as they were: a better-calibrated folktexts model (no stretched logits, more noise)
// and a RAFT run with other skills per task (so the runs differ both ways).
function secondRuns() {
  const rand2 = rng(20261201);
  const normal2 = () => Math.sqrt(-2 * Math.log(1 - rand2())) * Math.cos(2 * Math.PI * rand2());
  const dir = 'folktexts/Llama-3-8B-sim__ACSIncome__-1';
  const rows = folktextsRows.map((r) => ({ index: r.index, label: r.label, score: round(sigmoid(r.logit + 0.9 * normal2()), 7) }));
  write(`${dir}/Llama-3-8B-sim__ACSIncome__-1.test_predictions.csv`, [',risk_score,label', ...rows.map((r) => `${r.index},${r.score},${r.label}`)].join('\n') + '\n');
  folktextsResults(dir, 'Llama-3-8B-sim', rows);
  for (const [t, task] of RAFT_TASKS.entries()) {
    const gold = raftGold.get(task.name);
    const skill = [0.7, 0.75, 0.6][t];
    const preds = ['ID,Label'];
    for (let id = 0; id < 50; id++) {
      const right = rand2() < skill;
      const wrong = task.classes.filter((c) => c !== gold[id]);
      preds.push(csvRow([id, right ? gold[id] : wrong[Math.floor(rand2() * wrong.length)]]));
    }
    for (let id = 50; id < 55; id++) preds.push(csvRow([id, task.classes[Math.floor(rand2() * task.classes.length)]]));
    write(`raft/run-2/${task.name}/predictions.csv`, preds.join('\n') + '\n');
  }
}

rmSync(root, { recursive: true, force: true });
folktexts();
raft();
almanacs();
lmEval();
generic();
secondRuns();
write('README.md', `# Examples (synthetic)

Every file here is **synthetic**: written by \`scripts/make-examples.mjs\` with a fixed seed, from
simulated models. No real model, benchmark run or data set was used. Regenerate with
\`npm run examples\`.

| folder | format | what it simulates |
|---|---|---|
| \`folktexts/\` | folktexts \`*.test_predictions.csv\` + \`results.bench-*.json\` | an overconfident LLM risk score on an income task (2,000 rows), a second, better-calibrated model on the same rows (\`Llama-3-8B-sim\`, for comparing runs), and \`broken/\` with one bad row of each common kind |
| \`raft/data/\`, \`raft/run-1/\`, \`raft/run-2/\` | RAFT \`train.csv\` + \`task.json\`, and two runs' \`<task>/predictions.csv\` | three invented text-classification tasks; five predictions per task are for test IDs without gold labels |
| \`almanacs/\` | ALMANACS predictor outputs (JSON Lines) | a predictor of a model's P(Yes); half of its outputs are JSON inside text |
| \`lm-eval/\` | lm-evaluation-harness \`samples_*.jsonl\` | a 4-choice multiple-choice task with log-likelihoods |
| \`generic/\` | CSV \`id,confidence,correct\` | a QA system's confidence in its own answers |

Try: \`npx eval-lens score examples --raft-data examples/raft/data\`.
`);
console.log(`wrote ${root}`);
