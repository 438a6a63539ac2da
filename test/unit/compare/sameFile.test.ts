// A folder and a file inside it, compared together (issue 21, point 6): the file would be set
// against itself (every p = 1). comparePaths refuses, naming the file and the folder.
import { describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import { comparePaths } from '../../../src/core/compareFiles';
import { CompareError } from '../../../src/core/compare/compare';
import { folktextsFile, raftData, raftRun1 } from './tempRuns';

describe('comparing a file with a folder that holds it', () => {
  it('a folktexts run folder and its own file: refused, not a comparison of the file with itself', () => {
    const folder = dirname(folktextsFile);
    expect(() => comparePaths([folder, folktextsFile], { bootstrap: 0 })).toThrow(CompareError);
    expect(() => comparePaths([folder, folktextsFile], { bootstrap: 0 })).toThrow(/inside the folder .*the file against itself/);
  });

  it('a RAFT run folder and one of its tasks\' predictions.csv: refused', () => {
    const file = join(raftRun1, 'bank_intents', 'predictions.csv');
    expect(() => comparePaths([raftRun1, file], { bootstrap: 0, raftDataFolder: raftData } as never)).toThrow(/predictions\.csv is both inside the folder .*run-1 and named as/);
  });
});
