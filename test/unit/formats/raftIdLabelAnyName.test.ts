// A CSV whose header is exactly ID,Label holds one label per ID and nothing else, so it cannot hold
// both a gold label and a prediction: scored alone there is nothing to compare, and with gold data
// beside it it can only be the predictions. That is a RAFT submission's shape whatever the file is
// called. Before, any name but predictions.csv (raft-baselines' example_predictions.csv, MIT) was
// read as a generic table whose "gold label is Label, but no column is named as a prediction".
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { detectFormat } from '../../../src/core/formats/detect';
import { REAL } from '../realData';

const EXAMPLE = join(REAL, 'raft-baselines', 'example_predictions.csv');

describe('an ID,Label CSV under any name is RAFT predictions', () => {
  it('is detected as RAFT, and without task data says where the gold labels are wanted', () => {
    expect(detectFormat(EXAMPLE, readFileSync(EXAMPLE, 'utf8'))).toBe('raft');
    const r = scoreFile(EXAMPLE, { bootstrap: 0 });
    expect(r.fatal).toMatch(/RAFT predictions/);
    expect(r.fatal).toMatch(/--raft-data/);
    expect(r.fatal).not.toMatch(/gold label is Label/);
    // The folder (raft-baselines) is not a RAFT task: no task is named after it.
    expect(r.fatal).not.toMatch(/task "raft-baselines"/);
  });

  it('finds its task in the RAFT data folder from its labels when the folder does not name one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'raft-any-name-'));
    mkdirSync(join(dir, 'run'));
    const file = join(dir, 'run', 'my_preds.csv');
    writeFileSync(file, 'ID,Label\n' + Array.from({ length: 10 }, (_, i) => `${i},advanced`).join('\n') + '\n');
    const r = scoreFile(file, { bootstrap: 0, raftData: join(REAL, 'raft') });
    expect(r.fatal).toBeUndefined();
    expect(r.task).toBe('one_stop_english');
    expect(r.n).toBe(10);
    // Gold of IDs 0-9 in one_stop_english/train.csv: intermediate, advanced, advanced, intermediate,
    // elementary x3, advanced, intermediate, elementary. Predicting "advanced" everywhere: 3/10 right;
    // F1(advanced) = 2*3/(2*3+7+0) = 6/13, the other two classes 0, macro over the 3 classes 2/13.
    expect(r.metrics.accuracy).toBeCloseTo(0.3, 12);
    expect(r.metrics.macro_f1).toBeCloseTo(2 / 13, 12);
  });
});
