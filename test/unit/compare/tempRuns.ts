// Runs made in a temp folder for the CLI tests: a second RAFT run (from examples/raft/run-1 with
// some labels changed) and a second folktexts file (the example's rows shuffled and rescored).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mulberry32 } from '../../../src/core/metrics/bootstrap';

export const root = join(__dirname, '..', '..', '..');
export const examples = join(root, 'examples');
export const raftData = join(examples, 'raft', 'data');
export const raftRun1 = join(examples, 'raft', 'run-1');
export const folktextsFile = join(examples, 'folktexts', 'Mistral-7B-sim__ACSIncome__-1', 'Mistral-7B-sim__ACSIncome__-1.test_predictions.csv');

/** A copy of run-1 where every `every`-th prediction is changed to the next class of the task. */
export function makeRaftRun(dir: string, name: string, every: number): string {
  const out = join(dir, name);
  for (const task of readdirSync(raftRun1)) {
    const classes: string[] = Object.values(JSON.parse(readFileSync(join(raftData, task, 'task.json'), 'utf8')).label_columns as Record<string, string[]>)[0];
    const lines = readFileSync(join(raftRun1, task, 'predictions.csv'), 'utf8').trimEnd().split('\n');
    const changed = lines.map((line, i) => {
      if (i === 0 || i % every !== 0) return line;
      const comma = line.indexOf(',');
      const label = line.slice(comma + 1).replace(/^"|"$/g, '');
      const next = classes[(classes.indexOf(label) + 1) % classes.length];
      return `${line.slice(0, comma)},${/[",]/.test(next) ? `"${next.replace(/"/g, '""')}"` : next}`;
    });
    mkdirSync(join(out, task), { recursive: true });
    writeFileSync(join(out, task, 'predictions.csv'), changed.join('\n') + '\n');
  }
  return out;
}

/** The folktexts example with its scores moved towards the labels, rows shuffled, `drop` rows left out. */
export function makeFolktextsCandidate(dir: string, drop = 0, seed = 3): string {
  const rand = mulberry32(seed);
  const [header, ...rows] = readFileSync(folktextsFile, 'utf8').trimEnd().split('\n');
  const out = rows.map((line) => {
    const [id, score, label] = line.split(',');
    const s = Math.min(1, Math.max(0, 0.7 * Number(score) + 0.3 * Number(label) * rand() + 0.05 * rand()));
    return `${id},${s.toFixed(6)},${label}`;
  });
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  const path = join(dir, 'candidate.test_predictions.csv');
  writeFileSync(path, [header, ...out.slice(drop)].join('\n') + '\n');
  return path;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'eval-lens-compare-'));
}
