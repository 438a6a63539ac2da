// Commands our messages suggest are pasted into a shell: a path in them must come back as the
// same one word. lighteval names its details files `details_community|gpqa-diamond-idk|0_...parquet`,
// where an unquoted `|` is a pipe.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellQuote, shellWords } from '../../src/common/shellQuote';
import { runCli } from '../../src/cli/main';

/** The words a POSIX shell reads from `line` (sh prints each argument on its own NUL-ended record). */
function shellSplit(line: string): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

const AWKWARD = [
  'details_community|gpqa-diamond-idk|0_2025-09-26T18-27-42.841353.parquet',
  "it's here.csv",
  'a b/$HOME/`id`/*.jsonl',
  '~/x;rm -rf y&&z',
  "''",
  'line\nbreak',
  '',
];

describe('shellQuote', () => {
  it('leaves names of safe characters bare, as people type them', () => {
    for (const w of ['results_2025-01-01T00-00-00.json', 'runs/a.b/c=d:e,f+g@h%i', '-x']) expect(shellQuote(w)).toBe(w);
  });

  it('quotes a name with anything else in single quotes, each quote written as \'\\\'\'', () => {
    expect(shellQuote('a|b')).toBe("'a|b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
    expect(shellQuote('~/x')).toBe("'~/x'");
  });

  it('a POSIX shell reads every quoted word back unchanged, one word each', () => {
    expect(shellSplit(shellWords(AWKWARD))).toEqual(AWKWARD);
  });
});

describe("compare's refusal suggests an eval-lens score a shell can run", () => {
  // Two tables of per-sample scores without gold labels: compare refuses them and suggests scoring them.
  const FIXTURE = resolve(__dirname, '../fixtures/generic-tables');
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-quote-'));
  const a = join(dir, 'details_community|ragas|0_2025.csv');
  const b = join(dir, "it's $HOME.jsonl");
  copyFileSync(join(FIXTURE, 'ragas_scores.csv'), a);
  copyFileSync(join(FIXTURE, 'ragas_scores.jsonl'), b);

  it('quotes the paths, and the command names exactly the two files', async () => {
    const out = await runCli(['compare', a, b]);
    expect(out.code).toBe(2);
    const m = /eval-lens score (.*)\.\n$/.exec(out.stderr);
    expect(m, out.stderr).not.toBeNull();
    expect(m![1]).toContain(`'${a}'`);
    expect(shellSplit(m![1])).toEqual([a, b]);
  });
});
