// A Git LFS pointer committed in place of a data file (lighteval's tests/reference_details/*.parquet,
// lm-eval samples_*.jsonl in model repositories) is refused with one sentence, whatever its name:
// what it is, the real file's size and oid, and the git lfs pull that fetches it. Data files that
// merely start like one are read as before.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { lfsPointer } from '../../src/core/formats/detect';
import { decideFile } from '../../src/core/unscored';
import { scoreFileAsync, scorePathAsync } from '../../src/core/scoreAsync';
import { scoreInput } from '../../src/core/score';
import { textInput } from '../../src/core/formats/context';

const OID = '419f252eddb158e185b515b39ca9e1784f7b4122a620a2a67034178bb1ea6abb';
// The pointer of lighteval's tests/reference_details/.../details_gsm8k_test|0_....parquet, byte for byte.
const POINTER = `version https://git-lfs.github.com/spec/v1\noid sha256:${OID}\nsize 35694\n`;

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-lfs-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The sentence every refusal of the pointer must carry. */
function expectPointerReason(text: string | undefined, name: string): void {
  expect(text).toContain(`${name} is a Git LFS pointer (130 bytes), not the data`);
  expect(text).toContain('34.9 KB');
  expect(text).toContain(`oid sha256:${OID}`);
  expect(text).toContain('git lfs pull');
}

const NAMES = [
  'details_gsm8k_test|0_2025-11-05T14-43-47.148527.parquet',
  'samples_gsm8k_2025-01-01T00-00-00.jsonl',
  'results_2025-01-01T00-00-00.json',
  'predictions.csv',
  '2025-01-01T00-00-00_gsm8k_abc.eval',
];

describe('a Git LFS pointer, whatever its name', () => {
  for (const name of NAMES) {
    it(`${name}: not scored, the pointer's sentence, no parse errors`, async () => {
      const path = file(name, POINTER);
      const { reports } = await scorePathAsync(path);
      expect(reports).toHaveLength(1);
      expect(reports[0].n).toBe(0);
      expectPointerReason(reports[0].fatal, name);
      // Not three lines of json-parse errors, nor "not a readable Parquet file".
      expect(reports[0].problems.filter((p) => p.severity === 'error' && p.code !== 'unscorable')).toEqual([]);
      expect(reports[0].fatal).not.toMatch(/readable Parquet|named like a results summary|not valid JSON/);
      // The editor's tree lists a file not scored with decideFile's reason: the same sentence.
      const decision = decideFile(path, POINTER);
      expect('reason' in decision && decision.reason).toBe(reports[0].fatal);
    });
  }

  it('is refused with a format given too (the reader never sees its lines)', async () => {
    const path = file('samples_forced.jsonl', POINTER);
    const report = await scoreFileAsync(path, { format: 'lm-eval' });
    expectPointerReason(report.fatal, 'samples_forced.jsonl');
    expect(report.problems.map((p) => p.code)).toEqual(['unscorable']);
  });

  it('is refused when read straight as Parquet (compare and board read Parquet ahead)', async () => {
    const path = file('details_direct.parquet', POINTER);
    const report = await scoreFileAsync(path);
    expectPointerReason(report.fatal, 'details_direct.parquet');
  });

  it('an unsaved buffer holding a pointer reads as the file would', () => {
    const report = scoreInput(textInput('samples_x.jsonl', POINTER));
    expectPointerReason(report.fatal, 'samples_x.jsonl');
  });

  it('in a folder walk, each pointer is listed as not scored with the sentence', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'eval-lens-lfs-folder-'));
    writeFileSync(join(folder, 'a.parquet'), POINTER);
    writeFileSync(join(folder, 'samples_b.jsonl'), POINTER);
    const { reports } = await scorePathAsync(folder);
    expect(reports.map((r) => r.notScored)).toEqual([true, true]);
    for (const r of reports) expectPointerReason(r.fatal, r.path.endsWith('a.parquet') ? 'a.parquet' : 'samples_b.jsonl');
  });

  it('the CLI suggests a git lfs pull whose name a shell reads as one word', async () => {
    const path = file(NAMES[0], POINTER);
    const out = await runCli(['score', path]);
    expect(out.code).toBe(2);
    expect(out.stdout).toContain(`git lfs pull --include='${NAMES[0]}'`);
    // A safe name stays bare.
    const safe = await runCli(['score', file('results_2025-01-01T00-00-00.json', POINTER)]);
    expect(safe.stdout).toContain('git lfs pull --include=results_2025-01-01T00-00-00.json ');
  });

  it('a name that --include would read as wildcards gets the plain git lfs pull', () => {
    const path = file('samples_[x].jsonl', POINTER);
    const decision = decideFile(path, POINTER);
    expect('reason' in decision && decision.reason).toContain('Run git lfs pull in its repository');
    expect('reason' in decision && decision.reason).not.toContain('--include');
  });
});

describe('the pointer is read strictly', () => {
  it('accepts the spec: extension lines before oid, CRLF line ends, a trimmed final newline', () => {
    expect(lfsPointer(POINTER)).toEqual({ oid: `sha256:${OID}`, size: 35694, bytes: 130 });
    expect(lfsPointer(`version https://git-lfs.github.com/spec/v1\next-0-foo sha256:${OID}\noid sha256:${OID}\nsize 12\n`)?.size).toBe(12);
    expect(lfsPointer(POINTER.replace(/\n/g, '\r\n'))?.size).toBe(35694);
    expect(lfsPointer(POINTER.trimEnd())?.size).toBe(35694);
  });

  it.each([
    ['another version URL', POINTER.replace('spec/v1', 'spec/v2')],
    ['a leading blank line', `\n${POINTER}`],
    ['an oid of 63 hex digits', POINTER.replace(OID, OID.slice(1))],
    ['an upper-case oid', POINTER.replace(OID, OID.toUpperCase())],
    ['no size line', POINTER.replace('size 35694\n', '')],
    ['size before oid', `version https://git-lfs.github.com/spec/v1\nsize 35694\noid sha256:${OID}\n`],
    ['a line after size', `${POINTER}label 1\n`],
    ['a size that is not a number', POINTER.replace('35694', '35k')],
    ['more than 1 KB (valid lines otherwise)', `version https://git-lfs.github.com/spec/v1\n${Array.from({ length: 12 }, (_, i) => `ext-${i}-x sha256:${OID}\n`).join('')}oid sha256:${OID}\nsize 1\n`],
  ])('is not a pointer: %s', (_why, text) => {
    expect(lfsPointer(text)).toBeUndefined();
  });

  it('a CSV whose first cell is "version" is a table, not a pointer', async () => {
    const path = file('versions.csv', 'version,score,label\nhttps://git-lfs.github.com/spec/v1,0.9,1\nv2,0.2,0\nv3,0.7,1\nv4,0.4,0\n');
    const { reports } = await scorePathAsync(path);
    expect(reports[0].fatal).toBeUndefined();
    expect(reports[0].n).toBe(4);
    expect(JSON.stringify(reports[0])).not.toContain('Git LFS');
  });

  it('a JSON Lines file whose first record names the spec is read as records', async () => {
    const path = file('preds.jsonl', '{"version": "https://git-lfs.github.com/spec/v1", "score": 0.9, "label": 1}\n{"score": 0.1, "label": 0}\n');
    const { reports } = await scorePathAsync(path);
    expect(reports[0].n).toBe(2);
    expect(reports[0].fatal ?? '').not.toContain('Git LFS');
  });
});
