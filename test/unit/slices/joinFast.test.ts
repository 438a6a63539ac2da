// Issue 22, goal 3: a data file whose keys are all integers (and that holds no quote) is joined in
// one pass over its text, with the predictions' integer IDs looked up as numbers. The general join
// (record objects, maps of IDs) is the reference: on random files with blank lines, CRLF, short
// rows, repeated keys, IDs written "7.0" or missing, both must give the same values and problems.
import { describe, expect, it } from 'vitest';
import { joinDataFile } from '../../../src/core/slices/dataJoin';
import type { PredictionSet } from '../../../src/core/types';
import { mulberry32 as rng } from '../../../src/core/metrics/bootstrap';

function io(text: string) {
  return { readText: () => text, list: () => undefined };
}

function randomData(random: () => number, rows: number): string {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const odd = random() < 0.5 ? 0.2 : 0.01;
  const delimiter = ',';
  let text = pick([',GROUP,AGEP', 'id,GROUP', 'GROUP,ID,x', ',group,AGEP']);
  const header = text.split(delimiter);
  const keyCol = header[0] === '' ? 0 : header.findIndex((h) => h.toLowerCase() === 'id');
  for (let r = 0; r < rows; r++) {
    text += random() < 0.1 ? '\r\n' : '\n';
    if (random() < odd * 0.2) continue; // blank line
    const fields = header.map((_, c) => (c === keyCol ? String(random() < odd ? Math.floor(random() * 5) : r * 3) : pick(['a', 'b', 'c d', '', 'ü', '1', '10', ' a'])));
    const cut = random() < odd * 0.3 ? fields.slice(0, 1 + Math.floor(random() * (fields.length - 1))) : fields;
    text += cut.join(delimiter);
  }
  if (random() < 0.5) text += '\n';
  return text;
}

describe('the integer-key join', () => {
  it('agrees with the general join on 300 random data files, by ids and by idNumbers', () => {
    const random = rng(4242);
    for (let k = 0; k < 300; k++) {
      const rows = 1 + Math.floor(random() * 60);
      const text = randomData(random, rows);
      const n = 1 + Math.floor(random() * 60);
      const nums = Float64Array.from({ length: n }, () => Math.floor(random() * rows * 3.3));
      const lines = Uint32Array.from({ length: n }, (_, i) => i + 2);
      const base = { kind: 'binary', n, lines, score: new Float64Array(n), label: new Uint8Array(n) } as const;
      const written = Array.from(nums, (v) => (random() < 0.1 ? `${v}.0` : random() < 0.05 ? ` ${v}` : random() < 0.03 ? `x${v}` : String(v)));
      const byIds: PredictionSet = { ...base, ids: written };
      const byNumbers: PredictionSet = { ...base, idNumbers: nums, ids: Array.from(nums, String) };
      const column = random() < 0.5 ? 'GROUP' : 'group';
      for (const set of [byIds, byNumbers]) {
        const fast = joinDataFile(set, '/tmp/data.csv', column, undefined, io(text));
        const general = joinDataFile(set, '/tmp/data.csv', column, undefined, io(text), { general: true });
        expect(fast, `file ${k}:\n${text}`).toEqual(general);
      }
    }
  });

  it('joins on idNumbers alone (no ID strings made)', () => {
    const text = ',GROUP\n2,b\n0,a\n1,a\n';
    const set: PredictionSet = { kind: 'binary', n: 3, lines: Uint32Array.of(2, 3, 4), score: new Float64Array(3), label: new Uint8Array(3), idNumbers: Float64Array.of(0, 1, 2) };
    const joined = joinDataFile(set, '/tmp/d.csv', 'GROUP', undefined, io(text));
    expect('values' in joined && joined.values).toEqual(['a', 'a', 'b']);
  });
});
