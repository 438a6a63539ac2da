// The one path helper, on POSIX and Windows paths alike (its answers are compared with Node's path
// module for the forms both understand).
import { posix, win32 } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseName, dirName, joinPath, runLabel, runLabels } from '../../../src/common/paths';

describe('path helper', () => {
  it('agrees with node:path on POSIX and Windows file paths', () => {
    for (const p of ['/runs/r1/predictions.csv', 'runs/r1/predictions.csv', 'predictions.csv', '/predictions.csv']) {
      expect(baseName(p), p).toBe(posix.basename(p));
      expect(dirName(p) || '.', p).toBe(posix.dirname(p));
    }
    for (const p of ['C:\\runs\\r1\\predictions.csv', 'runs\\predictions.csv']) {
      expect(baseName(p), p).toBe(win32.basename(p));
      expect(dirName(p), p).toBe(win32.dirname(p));
    }
  });

  it('names a folder given with a trailing separator, and keeps a path that has no name', () => {
    expect(baseName('/runs/r1/')).toBe('r1');
    expect(baseName('C:\\runs\\r1\\')).toBe('r1');
    expect(baseName('/')).toBe('/');
  });

  it('joins with the folder\'s own separator', () => {
    expect(joinPath('C:\\runs\\r1', 'task.json')).toBe('C:\\runs\\r1\\task.json');
    expect(joinPath('/runs/r1/', 'task.json')).toBe('/runs/r1/task.json');
    expect(joinPath('/runs/r1', 'task.json')).toBe('/runs/r1/task.json');
    expect(joinPath('', 'task.json')).toBe('task.json');
    expect(joinPath(dirName('/runs/r1/samples_x.jsonl'), 'results_1.json')).toBe('/runs/r1/results_1.json');
  });
});

describe('tab labels that tell runs apart (issue 21, point 12)', () => {
  it('names a RAFT predictions.csv by its task and run, any other file by its name', () => {
    expect(runLabel('/w/raft/run-2/banking_77/predictions.csv')).toBe('banking_77 · run-2');
    expect(runLabel('C:\\w\\run-1\\ade_corpus_v2\\predictions.csv')).toBe('ade_corpus_v2 · run-1');
    expect(runLabel('/w/Mistral-7B.ACSIncome.test_predictions.csv')).toBe('Mistral-7B.ACSIncome.test_predictions.csv');
    expect(runLabel('/w/raft/run-2')).toBe('run-2');
    expect(runLabel('predictions.csv')).toBe('predictions.csv');
  });

  it('adds folders until the labels differ', () => {
    expect(runLabels(['/w/run-1/banking_77/predictions.csv', '/w/run-2/banking_77/predictions.csv'])).toEqual(['banking_77 · run-1', 'banking_77 · run-2']);
    expect(runLabels(['/w/a/m.csv', '/w/b/m.csv'])).toEqual(['m.csv · a', 'm.csv · b']);
    expect(runLabels(['/x/run/t/predictions.csv', '/y/run/t/predictions.csv'])).toEqual(['t · run · x', 't · run · y']);
    expect(runLabels(['/w/a.csv', '/w/b.csv'])).toEqual(['a.csv', 'b.csv']);
  });
});
