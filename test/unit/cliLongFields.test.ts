// A numeric field millions of characters long is a row problem for the CLI too: exit 0 (the other
// rows were scored), the problem printed, no usage text. (The 100-million-digit cases of issue 9
// were checked by hand; these are smaller so the test stays quick.)
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main';

describe('eval-lens score on very long numeric fields', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-long-'));
  const files = {
    'folk.test_predictions.csv': `,risk_score,label\n0,0.5,1\n1,${'9'.repeat(5_000_000)},1\n2,0.25,0\n3,0.75,1\n`,
    'plain.csv': `score,label\n0.5,1\n${'9'.repeat(5_000_000)},1\n0.25,0\n0.75,1\n`,
  };
  for (const [name, text] of Object.entries(files)) {
    it(`${name}: exit 0, a field-too-long problem on line 3, three rows scored`, async () => {
      const path = join(dir, name);
      writeFileSync(path, text);
      const out = await runCli(['score', '--json', path]);
      expect(out.code).toBe(0);
      expect(out.stderr).not.toMatch(/usage/i);
      const result = JSON.parse(out.stdout).results[0];
      expect(result.n).toBe(3);
      expect(result.skipped).toBe(1);
      expect(result.problems.map((p: { line: number; code: string }) => `${p.line} ${p.code}`)).toEqual(['3 field-too-long']);
    });
  }
});
