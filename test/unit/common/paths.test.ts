// The one path helper, on POSIX and Windows paths alike (its answers are compared with Node's path
// module for the forms both understand).
import { posix, win32 } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseName, dirName, joinPath } from '../../../src/common/paths';

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
