#!/usr/bin/env node
// Judge files (issue 27): 10,000 FastChat MT-Bench single judgments with their full judge text
// (user_prompt and judgment, ~5 KB a record, ~50 MB in all), scored by the CLI in a fresh process,
// timed from the process's start to its exit: `score FILE` and `score --json FILE`. Also a 20,000
// battle Chatbot Arena file among 20 models with the default 1,000-resample rating bootstrap.
//
//   node bench/judges.bench.mjs [--runs 5] [--records 10000] [--cli dist/cli.js]
//
// The CLI is the built dist/cli.js (node scripts/build.mjs), or --cli PATH. Data goes to
// bench/data/ (git-ignored), generated once with a fixed seed: records are in FastChat's
// play_a_match_single shape (question_id, model, judge, user_prompt, judgment, score, turn, tstamp),
// 10 models × 80 questions × 2 turns, about 1 in 10 scores -1 and some halves.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const data = join(here, 'data');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const runs = Number(opt('runs', '5'));
const records = Number(opt('records', '10000'));
const cli = resolve(opt('cli', join(root, 'dist', 'cli.js')));
if (!existsSync(cli)) throw new Error(`${cli} is missing: run node scripts/build.mjs (or pass --cli PATH)`);
mkdirSync(data, { recursive: true });

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'the of and to in is that for it as was with be by on not this are or from at which but have an they were there been one all their has would when if so what out some could more into then two time these than other assistant answer response helpful accurate relevant detailed explanation however correct mistake example'.split(' ');
const words = (r, n) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');

function singleFile(path, n) {
  const r = mulberry32(27);
  const lines = [];
  for (let i = 0; i < n; i++) {
    const model = `model-${i % 10}`;
    const q = 81 + (Math.floor(i / 10) % 80);
    const turn = 1 + (Math.floor(i / 800) % 2);
    const u = r();
    const score = u < 0.1 ? -1 : u < 0.15 ? 1 + Math.floor(r() * 18) / 2 : 1 + Math.floor(r() * 10);
    const question = words(r, 30);
    const answer = words(r, 520);
    const userPrompt = `[Question]\n${question}\n\n[The Start of Assistant's Answer]\n${answer}\n[The End of Assistant's Answer]`;
    const judgment = `${words(r, 400)}\n\nRating: ${score === -1 ? 'none' : `[[${score}]]`}`;
    lines.push(JSON.stringify({ question_id: q, model, judge: ['gpt-4', turn === 1 ? 'single-v1' : 'single-v1-multi-turn'], user_prompt: userPrompt, judgment, score, turn, tstamp: 1700000000 + i }));
  }
  writeFileSync(path, lines.join('\n') + '\n');
}

function battlesFile(path, n) {
  const r = mulberry32(7);
  const strength = Array.from({ length: 20 }, (_, k) => 1.5 - (3 * k) / 19);
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = Math.floor(r() * 20);
    let b = Math.floor(r() * 19);
    if (b >= a) b++;
    const p = 1 / (1 + Math.exp(strength[b] - strength[a]));
    const u = r();
    const winner = u < 0.1 ? 'tie' : u < 0.15 ? 'tie (bothbad)' : r() < p ? 'model_a' : 'model_b';
    out.push(JSON.stringify({ question_id: `q${i}`, model_a: `m${a}`, model_b: `m${b}`, winner, judge: `arena_user_${i % 997}`, turn: 1, anony: true, language: 'English', tstamp: 1682351591 + i }));
  }
  writeFileSync(path, out.join('\n') + '\n');
}

const single = join(data, `mt-bench-${records}_single.jsonl`);
if (!existsSync(single)) singleFile(single, records);
const battles = join(data, 'arena-20000-battles.jsonl');
if (!existsSync(battles)) battlesFile(battles, 20000);

/** Wall time of one fresh `node CLI ...args`, from spawn to exit, in seconds. */
function timeCli(cliArgs) {
  const t0 = process.hrtime.bigint();
  const res = spawnSync(process.execPath, [cli, ...cliArgs], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (res.status !== 0) throw new Error(`exit ${res.status}: ${res.stderr}`);
  return { seconds, stdout: res.stdout };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (p) => (statSync(p).size / 1e6).toFixed(1);
console.log(`node ${process.version}, ${runs} runs each, CLI ${cli}`);
for (const [label, file, extra] of [
  [`MT-Bench single, ${records} judgments (${mb(single)} MB)`, single, []],
  [`MT-Bench single, ${records} judgments, --json`, single, ['--json']],
  [`Arena, 20,000 battles among 20 models (${mb(battles)} MB), 1,000 rating resamples`, battles, ['--json']],
]) {
  const times = [];
  let out = '';
  for (let k = 0; k < runs; k++) {
    const t = timeCli(['score', ...extra, file]);
    times.push(t.seconds);
    out = t.stdout;
  }
  console.log(`${label}: median ${median(times).toFixed(2)} s (min ${Math.min(...times).toFixed(2)}, max ${Math.max(...times).toFixed(2)})`);
  if (extra.includes('--json')) {
    const res = JSON.parse(out).results[0];
    console.log(`  n=${res.n}, invalid=${res.judge.invalid}, models=${res.judge.models.length}${res.ratings ? `, top rating ${res.ratings[0].model} ${res.ratings[0].rating.toFixed(1)}` : ''}`);
  }
}
