import { describe, expect, it } from 'vitest';
import type { RowProblem } from '../../../src/core/types';
import {
  fractionText, parseBinaryLabel, parseClassName, parseProbability, readNumberText, showValue,
} from '../../../src/core/formats/numbers';

describe('readNumberText', () => {
  it('reads decimals, scientific notation and surrounding space', () => {
    expect(readNumberText('0.25')).toEqual({ kind: 'number', value: 0.25 });
    expect(readNumberText(' 1e-05 ')).toEqual({ kind: 'number', value: 1e-5 });
    expect(readNumberText('.5')).toEqual({ kind: 'number', value: 0.5 });
    expect(readNumberText('5.')).toEqual({ kind: 'number', value: 5 });
    expect(readNumberText('-3')).toEqual({ kind: 'number', value: -3 });
  });
  it('refuses what Number() would wrongly accept', () => {
    for (const s of ['0x1f', '1_0', 'abc', '1,5', '--1', '.', 'e5', '0.5.1']) expect(readNumberText(s).kind).toBe('text');
  });
  it('tells missing, non-finite and percentages apart', () => {
    for (const s of ['', '  ', 'NA', 'n/a', 'null', 'None', '<NA>']) expect(readNumberText(s).kind).toBe('missing');
    for (const s of ['NaN', 'nan', 'inf', '-inf', 'Infinity', '-Infinity', '+inf', '1e999']) expect(readNumberText(s).kind).toBe('non-finite');
    expect(readNumberText('73%')).toEqual({ kind: 'percent', value: 73 });
    expect(readNumberText('12.5 %')).toEqual({ kind: 'percent', value: 12.5 });
  });
  it('gives exactly what parseFloat gives', () => {
    for (const s of ['0.1', '0.30000000000000004', '0.8175744414329529', '2e-07', '0.99999999999999999']) {
      expect((readNumberText(s) as { value: number }).value).toBe(parseFloat(s));
    }
  });
});

describe('parseProbability', () => {
  const run = (raw: unknown) => {
    const problems: RowProblem[] = [];
    const value = parseProbability(raw, 7, 12, 'risk_score', problems);
    return { value, problems };
  };

  it('accepts [0, 1] from text and JSON numbers', () => {
    expect(run('0').value).toBe(0);
    expect(run('1').value).toBe(1);
    expect(run('0.734').value).toBe(0.734);
    expect(run(0.25).value).toBe(0.25);
    expect(run('0.25').problems).toEqual([]);
  });

  it('reports text as not-a-number, with line, column and end column', () => {
    const { value, problems } = run('abc');
    expect(value).toBeUndefined();
    expect(problems).toEqual([{
      line: 7, column: 12, endColumn: 15, severity: 'error', code: 'not-a-number',
      message: 'risk_score "abc" is not a number; the row is skipped.',
    }]);
  });

  it('reports a percentage with the fraction it means (quick fix)', () => {
    const { problems } = run('73%');
    expect(problems[0]).toMatchObject({ code: 'percent-probability', column: 12, endColumn: 15 });
    expect(problems[0].message).toContain('(0.73?)');
    expect(run('150%').problems[0].code).toBe('out-of-range');
  });

  it('reports NaN/inf, out of range, missing and wrong JSON types', () => {
    expect(run('NaN').problems[0].code).toBe('not-finite');
    expect(run('-inf').problems[0].code).toBe('not-finite');
    expect(run(Number.NaN).problems[0].code).toBe('not-finite');
    expect(run('1.5').problems[0].code).toBe('out-of-range');
    expect(run('73').problems[0].message).toContain('a percentage without the % sign?');
    expect(run('-0.1').problems[0].code).toBe('out-of-range');
    expect(run('').problems[0]).toMatchObject({ code: 'missing-field', message: 'risk_score is empty; the row is skipped.' });
    expect(run(null).problems[0]).toMatchObject({ code: 'missing-field', message: 'risk_score is null; the row is skipped.' });
    expect(run(undefined).problems[0]).toMatchObject({ code: 'missing-field', message: 'risk_score is missing; the row is skipped.' });
    expect(run(true).problems[0].code).toBe('not-a-number');
    expect(run({ p: 1 }).problems[0].code).toBe('not-a-number');
  });

  it('omits the column for JSON values and takes another note', () => {
    const problems: RowProblem[] = [];
    parseProbability('x', 3, undefined, 'p', problems, 'the row is kept');
    expect(problems[0]).toEqual({ line: 3, severity: 'error', code: 'not-a-number', message: 'p "x" is not a number; the row is kept.' });
  });
});

describe('parseBinaryLabel', () => {
  const run = (raw: unknown) => {
    const problems: RowProblem[] = [];
    return { value: parseBinaryLabel(raw, 2, 5, 'label', problems), problems };
  };
  it('accepts 0/1, 0.0/1.0, True/False and JSON booleans', () => {
    for (const [raw, want] of [['0', 0], ['1', 1], ['0.0', 0], ['1.0', 1], [' 1 ', 1], ['True', 1], ['false', 0], ['FALSE', 0], [true, 1], [false, 0], [0, 0], [1, 1]] as const) {
      expect(run(raw).value).toBe(want);
    }
  });
  it('rejects anything else as bad-label', () => {
    for (const raw of ['2', '0.5', 'yes', '>50K', -1, 0.5]) {
      const r = run(raw);
      expect(r.value).toBeUndefined();
      expect(r.problems[0].code).toBe('bad-label');
    }
    expect(run('2').problems[0].message).toBe('label "2" is not a binary label (0/1 or True/False); the row is skipped.');
    expect(run('').problems[0].code).toBe('missing-field');
  });
});

describe('parseClassName', () => {
  it('reads class names from text, numbers and booleans', () => {
    const problems: RowProblem[] = [];
    expect(parseClassName(' cat ', 1, 1, 'gold', problems)).toBe('cat');
    expect(parseClassName(3, 1, 1, 'gold', problems)).toBe('3');
    expect(parseClassName(false, 1, 1, 'gold', problems)).toBe('false');
    expect(parseClassName('', 1, 1, 'gold', problems)).toBeUndefined();
    expect(problems.map((p) => p.code)).toEqual(['missing-field']);
  });
});

describe('message helpers', () => {
  it('formats fractions and values', () => {
    expect(fractionText(73)).toBe('0.73');
    expect(fractionText(7)).toBe('0.07');
    expect(fractionText(12.5)).toBe('0.125');
    expect(showValue('x'.repeat(50))).toBe(JSON.stringify(`${'x'.repeat(37)}...`));
    expect(showValue(undefined)).toBe('nothing');
  });
});
