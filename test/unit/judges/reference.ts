// The Python reference of the judge figures (test/reference/judges_reference.py: FastChat's
// show_result.py and compute_agreement.py, AlpacaEval's helpers.py, the Chatbot Arena notebook's
// logistic regression, scikit-learn's cohen_kappa_score), run with Debian's python3.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..', '..');
export const PY = '/usr/bin/python3';
export const HAVE_PYTHON = existsSync(PY);
export const REAL_MT_BENCH = join(ROOT, 'test', 'fixtures', 'real', 'mt-bench');
export const MADE = join(ROOT, 'test', 'fixtures', 'judges');

/** The reference's JSON for `kind` on `path` (and an extra argument: question.jsonl, resample counts). */
export function reference<T = any>(kind: string, path: string, extra?: string): T {
  const args = [join(ROOT, 'test', 'reference', 'judges_reference.py'), kind, path, ...(extra ? [extra] : [])];
  return JSON.parse(execFileSync(PY, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
}

/** |a - b| <= tol, with a message naming what differs. */
export function close(a: number | null | undefined, b: number | null | undefined, tol: number, what: string): void {
  if (typeof a !== 'number' || typeof b !== 'number' || !(Math.abs(a - b) <= tol)) {
    throw new Error(`${what}: ${a} against the reference's ${b} (tolerance ${tol})`);
  }
}
