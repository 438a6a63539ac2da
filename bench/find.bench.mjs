// Finding (issue 20): the search of the instance table and --slices on a million rows.
//  1. search: the terms of src/common/whereTerms.ts (the grammar the page's search box and --where
//     share) over 1,000,000 rows, each with a 60-80 character text and two columns: the first
//     search (which lower-cases every text once) and the following ones, best of 5.
//  2. compare --slices auto of two 1,000,000-row runs (3 columns of 2-12 values and a numeric one
//     cut in quartiles), with --bootstrap 0 and 200: wall time and peak RSS of the built CLI.
//   node scripts/build.mjs && node bench/find.bench.mjs [--rows N] [--only search|slices]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const rows = Number(arg('--rows')) || 1_000_000;
const only = arg('--only');
const dir = join(import.meta.dirname, 'data');
mkdirSync(dir, { recursive: true });
let s = 11;
const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
const WORDS = ['card', 'refund', 'transfer', 'declined', 'pending', 'exchange', 'rate', 'top', 'up', 'failed', 'my', 'the', 'is', 'why', 'was', 'charged', 'twice', 'account', 'blocked', 'cash'];

if (!only || only === 'search') {
  const out = join(dir, 'whereTerms.bundle.mjs');
  await build({ entryPoints: [join(import.meta.dirname, '..', 'src', 'common', 'whereTerms.ts')], bundle: true, format: 'esm', platform: 'node', outfile: out, logLevel: 'warning' });
  const { parseWhere, rowHolds } = await import(out);
  const texts = new Array(rows);
  const intent = new Array(rows);
  const age = new Array(rows);
  for (let i = 0; i < rows; i++) {
    const n = 10 + Math.floor(rand() * 5);
    texts[i] = Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
    intent[i] = `intent_${Math.floor(rand() * 77)}`;
    age[i] = String(18 + Math.floor(rand() * 60));
  }
  // The page keeps each row's texts lower-cased once, beside the originals (the first search pays it).
  let lower = null;
  const column = (i) => (name) => (name === 'intent' ? intent[i] : name === 'age' ? age[i] : undefined);
  const run = (query) => {
    const parsed = parseWhere(query);
    if ('error' in parsed) throw new Error(parsed.error);
    const t0 = performance.now();
    if (!lower) lower = texts.map((t) => t.toLowerCase());
    const plain = parsed.terms.map((t) => (t.kind === 'text' ? t : null));
    let hits = 0;
    for (let i = 0; i < rows; i++) {
      // Plain text terms test the lower-cased copy; the others the row as it is.
      let ok = true;
      for (let k = 0; k < parsed.terms.length && ok; k++) {
        const p = plain[k];
        ok = p ? lower[i].includes(p.text) || intent[i].includes(p.text) : rowHolds([parsed.terms[k]], column(i), () => [texts[i], intent[i]]);
      }
      if (ok) hits++;
    }
    return { ms: performance.now() - t0, hits };
  };
  const queries = ['charged twice', '/declin(ed|e)/i', 'intent = intent_3 AND age > 40', 'intent ~ /_(1|2)\\d$/ AND card'];
  const first = run(queries[0]);
  console.log(`search over ${rows.toLocaleString('en')} rows with texts: first search (lower-cases every text once) ${first.ms.toFixed(0)} ms`);
  for (const q of queries) {
    const times = [];
    let hits = 0;
    for (let k = 0; k < 5; k++) { const r = run(q); times.push(r.ms); hits = r.hits; }
    console.log(`  ${JSON.stringify(q).padEnd(40)} best of 5 ${Math.min(...times).toFixed(0).padStart(5)} ms  (${hits.toLocaleString('en')} rows)`);
  }
}

if (!only || only === 'slices') {
  const files = ['a', 'b'].map((r) => join(dir, `slices-run-${r}-${rows}.csv`));
  if (!files.every(existsSync)) {
    const base = [];
    const cand = [];
    for (let i = 0; i < rows; i++) {
      const region = Math.floor(rand() * 12), tier = Math.floor(rand() * 3), channel = rand() < 0.5 ? 'web' : 'app', age = 18 + Math.floor(rand() * 60);
      const label = rand() < 0.3 ? 1 : 0;
      const noise = (rand() - 0.5) * 0.6;
      const score = Math.min(1, Math.max(0, (label ? 0.65 : 0.35) + noise));
      // The candidate is worse in region 7 only.
      const cscore = region === 7 ? Math.min(1, Math.max(0, score + (label ? -0.15 : 0.15))) : score;
      const rest = `${label},${region},${tier},${channel},${age}`;
      base.push(`r${i},${score.toFixed(5)},${rest}`);
      cand.push(`r${i},${cscore.toFixed(5)},${rest}`);
    }
    const head = 'id,score,label,region,tier,channel,age';
    writeFileSync(files[0], [head, ...base].join('\n') + '\n');
    writeFileSync(files[1], [head, ...cand].join('\n') + '\n');
  }
  const cli = join(import.meta.dirname, '..', 'dist', 'cli.js');
  for (const [label, args] of [
    ['compare, no slices, --bootstrap 0', ['--bootstrap', '0']],
    ['compare --slices auto --bootstrap 0', ['--slices', 'auto', '--bootstrap', '0']],
    ['compare --slices auto --bootstrap 200', ['--slices', 'auto', '--bootstrap', '200']],
  ]) {
    const r = spawnSync('/usr/bin/time', ['-f', '%e %M', 'node', cli, 'compare', '--json', ...files, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const [wall, kb] = r.stderr.trim().split('\n').pop().split(' ');
    const slices = JSON.parse(r.stdout).comparison.slices;
    const top = slices?.[0];
    console.log(`${label.padEnd(40)} ${wall.padStart(6)} s  ${(Number(kb) / 1024).toFixed(0).padStart(5)} MB peak RSS${slices ? `  ${slices.length} slices; first ${top.column}=${top.value} Δ ${top.delta.toFixed(4)} p_holm ${top.p_holm.toExponential(2)}` : ''}`);
  }
}
