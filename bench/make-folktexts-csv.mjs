#!/usr/bin/env node
// Writes a folktexts-style predictions file (pandas index=True: `,risk_score,label`) for the speed
// benchmark. Fixed seed, so every run writes the same bytes.
//
//   node bench/make-folktexts-csv.mjs [--rows 1000000] [--digits 7|full] [--out PATH] [--help]
//
// --digits 7 (default) rounds scores to 7 decimals (e.g. 0.7342519, ~17 MB for a million rows);
// --digits full writes the shortest round-trip repr of a double, as pandas does for float64 scores
// (e.g. 0.8175744414329529, ~27 MB), which is the slow case for the byte scanner's number parser.
import { createWriteStream, mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 as rng } from '../scripts/rng.mjs';

const USAGE = `usage: node bench/make-folktexts-csv.mjs [--rows N] [--digits 7|full] [--out PATH]

Writes a folktexts-style predictions file (,risk_score,label) with a fixed seed.
  --rows N         rows to write (default 1000000)
  --digits 7|full  scores rounded to 7 decimals (default, ~19 MB a million rows) or written in full (~29 MB)
  --out PATH       where (default bench/data/folktexts-1m.test_predictions.csv,
                   or bench/data/folktexts-1m-full.test_predictions.csv with --digits full)
  --help           this text; nothing is written`;

/** The options, or a sentence saying what is wrong with them (then nothing is written). */
function parseArgs(args) {
  const options = { rows: '1000000', digits: '7', out: undefined, help: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--help' || a === '-h') options.help = true;
    else if (a === '--rows' || a === '--digits' || a === '--out') {
      if (i + 1 >= args.length) return `${a} needs a value`;
      options[a.slice(2)] = args[++i];
    } else return `unknown option ${a}`;
  }
  if (!/^[1-9]\d*$/.test(options.rows)) return `--rows must be a positive whole number, not ${options.rows}`;
  if (options.digits !== 'full' && !/^\d+$/.test(options.digits)) return `--digits must be a number of decimals or full, not ${options.digits}`;
  return options;
}

const parsed = parseArgs(process.argv.slice(2));
if (typeof parsed === 'string') {
  console.error(`make-folktexts-csv: ${parsed}\n${USAGE}`);
  process.exit(1);
}
if (parsed.help) {
  console.log(USAGE);
  process.exit(0);
}
const rows = Number(parsed.rows);
const digits = parsed.digits;
const here = dirname(fileURLToPath(import.meta.url));
const out = parsed.out ?? join(here, 'data', digits === 'full' ? 'folktexts-1m-full.test_predictions.csv' : 'folktexts-1m.test_predictions.csv');

// mulberry32: small, fast, and the same sequence on every platform.
const random = rng(20240611);

// IDs: a shuffled sample of the index of a 1.66M-row frame (ACSIncome's size), as a test split is.
const universe = Math.max(rows, 1_664_500);
const index = new Uint32Array(universe);
for (let i = 0; i < universe; i++) index[i] = i;
for (let i = 0; i < rows; i++) {
  const j = i + Math.floor(random() * (universe - i));
  const t = index[i]; index[i] = index[j]; index[j] = t;
}

mkdirSync(dirname(out), { recursive: true });
// Written beside it and renamed when complete: a benchmark reading the file never sees half of it.
const part = `${out}.part`;
const stream = createWriteStream(part);
let chunk = ',risk_score,label\n';
for (let i = 0; i < rows; i++) {
  // A latent risk; the model's score is an over-confident, noisy view of it, the label a draw from it.
  const risk = random();
  const logit = Math.log(risk / (1 - risk));
  const s = 1 / (1 + Math.exp(-(1.4 * logit + 0.8 * (random() - 0.5))));
  const label = random() < risk ? 1 : 0;
  const text = digits === 'full' ? String(s) : String(Number(s.toFixed(Number(digits))));
  chunk += `${index[i]},${text},${label}\n`;
  if (chunk.length > 1 << 16) {
    if (!stream.write(chunk)) await new Promise((r) => stream.once('drain', r));
    chunk = '';
  }
}
stream.end(chunk);
await new Promise((r) => stream.on('finish', r));
renameSync(part, out);
console.log(`wrote ${rows} rows to ${out}`);
