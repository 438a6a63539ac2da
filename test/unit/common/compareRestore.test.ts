// What a compare or leaderboard page keeps for VS Code to hand back after a reload: only a
// well-formed request is taken; anything else restores nothing (the panel says so).
import { describe, expect, it } from 'vitest';
import { restoreStateOf } from '../../../src/common/compareProtocol';

describe('restoreStateOf', () => {
  it('takes a comparison of paths and a leaderboard of a folder', () => {
    expect(restoreStateOf({ mode: 'compare', paths: ['/a.csv', '/b.csv'] })).toEqual({ mode: 'compare', paths: ['/a.csv', '/b.csv'] });
    // One file with several models' columns is compared with itself: one path.
    expect(restoreStateOf({ mode: 'compare', paths: ['/models.csv'] })).toEqual({ mode: 'compare', paths: ['/models.csv'] });
    expect(restoreStateOf({ mode: 'board', folder: '/runs', extra: 1 })).toEqual({ mode: 'board', folder: '/runs' });
  });

  it.each([
    ['nothing', undefined],
    ['a string', 'compare'],
    ['no paths', { mode: 'compare', paths: [] }],
    ['a path that is not text', { mode: 'compare', paths: ['/a.csv', 7] }],
    ['an empty path', { mode: 'compare', paths: [''] }],
    ['paths that are not a list', { mode: 'compare', paths: '/a.csv' }],
    ['a board without a folder', { mode: 'board' }],
    ['an unknown mode', { mode: 'report', paths: ['/a.csv'] }],
  ])('refuses %s', (_what, state) => {
    expect(restoreStateOf(state)).toBeUndefined();
  });
});
