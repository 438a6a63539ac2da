// What the sample tab and the report page's sample peek are sent (issue 29): each target with the
// reader's answer, read here from a real .eval with the core's reader (as the sample worker does),
// and each failure said on its side (a reader that throws, a missing answer, a row not in the file);
// the row read ahead when a report is shown (its first sample) is one the reader finds.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstSampleTarget, readSides, sampleSides, type SampleReader, type SampleTarget } from '../../../src/extension/sample/sampleSides';
import { readSampleRecord } from '../../../src/core/samples/readSample';
import { scoreInput } from '../../../src/core/score';
import { fileInput } from '../../../src/core/formats/context';

const DEDUP = join(resolve(__dirname, '../../..'), 'test/fixtures/real/inspect-ai/log_message_deduplication.eval');
const target = (id: string, line: number): SampleTarget => ({ label: 'log_message_deduplication.eval', path: DEDUP, format: 'inspect', row: { line, id } });
const coreReader: SampleReader = async (targets) => targets.map((t) => readSampleRecord({ path: t.path, format: t.format, task: t.task, row: t.row }));

describe('the sides of a sample page', () => {
  it("carries each target's file, row and record as the reader read it", async () => {
    const [side] = await readSides(coreReader, [target('0', 1)]);
    expect(side).toMatchObject({ label: 'log_message_deduplication.eval', path: DEDUP, format: 'inspect', row: { line: 1, id: '0' }, from: 'file' });
    expect(side.error).toBeUndefined();
    expect(side.record?.messages?.length).toBe(12);
    expect(side.record?.messages?.flatMap((m) => m.tool_calls ?? []).map((c) => c.name)).toEqual(['bash', 'bash', 'bash', 'bash', 'bash']);
  });

  it("says on a side why it could not be read: the file's own answer, a missing answer, a reader that fails or is not there", async () => {
    const [missing] = await readSides(coreReader, [target('no-such-sample', 7)]);
    expect(missing.record).toBeUndefined();
    expect(missing.error).toMatch(/\S/);
    expect(sampleSides([target('0', 1), target('1', 2)], [{ error: 'gone' }])).toEqual([
      { ...target('0', 1), error: 'gone' },
      { ...target('1', 2), error: 'no answer' },
    ]);
    const failing: SampleReader = async () => { throw new Error('the sample reader stopped'); };
    expect((await readSides(failing, [target('0', 1), target('1', 2)])).map((s) => s.error)).toEqual(['the sample reader stopped', 'the sample reader stopped']);
    expect((await readSides(undefined, [target('0', 1)]))[0].error).toBe('Eval Lens is not ready to read samples yet.');
  });
});

describe('the sample read ahead when a report is shown', () => {
  it("is the first row of the first report whose file keeps samples, and the reader finds it", async () => {
    const report = scoreInput(fileInput(DEDUP, readFileSync(DEDUP)), { bootstrap: 0 });
    const ahead = firstSampleTarget([report]);
    expect(ahead).toEqual({ label: 'log_message_deduplication.eval', path: DEDUP, format: 'inspect', task: report.task, row: { line: 1, id: '0' } });
    const [side] = await readSides(coreReader, [ahead!]);
    expect(side.record?.messages?.length).toBe(12);
    // None without instances, or for a format whose file keeps no more than the report.
    expect(firstSampleTarget([{ ...report, instances: null }])).toBeUndefined();
    expect(firstSampleTarget([{ ...report, format: 'generic' }])).toBeUndefined();
  });
});
