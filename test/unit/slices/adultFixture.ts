// A folktexts-style predictions file and a data file made from the real Adult census test rows
// (test/fixtures/real/adult): a deterministic logistic-style risk score of age, education-num and
// hours-per-week, rounded to 3 decimals so that scores tie. The data file's rows are shuffled,
// some prediction IDs have no data row and some data rows no prediction.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ADULT = join(__dirname, '..', '..', 'fixtures', 'real', 'adult', 'adult-test.csv');

export interface AdultFiles {
  predictions: string;
  data: string;
  rows: number;
  /** Prediction IDs left out of the data file. */
  dropped: string[];
}

/** A small deterministic generator, so the shuffle is the same on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

export function writeAdultFiles(dir: string): AdultFiles {
  const lines = readFileSync(ADULT, 'utf8').split('\n');
  const preds: string[] = [',risk_score,label'];
  const data: string[] = [];
  const dropped: string[] = [];
  let k = 0;
  for (const line of lines) {
    const f = line.split(',').map((x) => x.trim());
    if (f.length < 15 || !/^\d+$/.test(f[0])) continue;
    const age = Number(f[0]), edu = Number(f[4]), hours = Number(f[12]);
    const label = f[14].startsWith('>50K') ? 1 : 0;
    const z = 0.04 * (age - 40) + 0.35 * (edu - 10) + 0.03 * (hours - 40) - 1.0;
    const score = Math.round(1000 / (1 + Math.exp(-z))) / 1000;
    // IDs that are not row numbers, as a subsampled pandas index is not.
    const id = String(3 * k + 7);
    preds.push(`${id},${score},${label}`);
    if (k % 97 === 5) dropped.push(id);
    else data.push(`${id},${age},${f[9]},${f[8]}`);
    k++;
  }
  // Data rows for IDs the predictions do not have.
  for (let j = 0; j < 25; j++) data.push(`${3 * (k + j) + 8},${30 + j},Female,Other`);
  const rand = lcg(42);
  for (let i = data.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [data[i], data[j]] = [data[j], data[i]];
  }
  const predictions = join(dir, 'ACSIncome_adult.test_predictions.csv');
  const dataPath = join(dir, 'adult_data.csv');
  writeFileSync(predictions, preds.join('\n') + '\n');
  writeFileSync(dataPath, [',age,sex,race', ...data].join('\n') + '\n');
  return { predictions, data: dataPath, rows: k, dropped };
}
