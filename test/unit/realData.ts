// Where the unit tests find real data. Everything whose licence allows it is copied into
// test/fixtures/real/ (see its NOTICE.md), so a clone with nothing beside it runs the suite.
// The RAFT sets marked non-commercial or unlicensed are not copied: a test that needs one asks
// `sharedOnly()`, which finds it in ../shared/data beside the clone (or in EVAL_LENS_SHARED_DATA,
// which also lets you hide it: EVAL_LENS_SHARED_DATA=/nonexistent), and otherwise prints one line
// saying what is skipped and why, so the test can `skipIf` without failing.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/** test/fixtures/real: the copied data, always present. */
export const REAL = join(ROOT, 'test', 'fixtures', 'real');

/** The optional data folder outside the repository (only for sets we may not copy). */
export const SHARED_DATA = process.env.EVAL_LENS_SHARED_DATA || resolve(ROOT, '..', 'shared', 'data');

/** RAFT tasks copied into test/fixtures/real/raft. */
export const COPIED_RAFT_TASKS = ['banking_77', 'neurips_impact_statement_risks', 'one_stop_english', 'systematic_review_inclusion', 'tai_safety_research'] as const;

const told = new Set<string>();

/**
 * The path of `relPath` under the shared data folder, or undefined (after printing one line naming
 * what is skipped) when it is not there. `what` names the tests that will be skipped.
 */
export function sharedOnly(relPath: string, what: string): string | undefined {
  const path = join(SHARED_DATA, relPath);
  if (existsSync(path)) return path;
  const key = `${relPath}\0${what}`;
  if (!told.has(key)) {
    told.add(key);
    console.log(`[skipped] ${what}: ${path} is absent (these sets are not copied into test/fixtures/real because their licence does not allow it, see its NOTICE.md; point EVAL_LENS_SHARED_DATA at a folder holding ${relPath}/ to run them).`);
  }
  return undefined;
}
