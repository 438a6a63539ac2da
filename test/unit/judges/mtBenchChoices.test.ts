// MT-Bench single judgments of a model that gave several answers per question, each judged: the
// ratings (and prompts, judgments) are lists, one entry per answer, as Liquid4All/mt_bench's fork of
// FastChat writes them (its Japanese MT-Bench judgments: 160 records, every score a list of 5, 8
// ratings -1; before, all 160 were left out: '"score" holds [6,6,4,6,4]'). That repository has no
// licence, so the file here is made in its shape (test/fixtures/judges/mt-bench-choices/make_choices.py).
// A record's score is the mean of its ratings other than -1; means against Python.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core';
import { parseFile } from '../../../src/core/score';

const FILE = resolve(__dirname, '../../fixtures/judges/mt-bench-choices/gpt-4_single_choices.jsonl');

const PY = String.raw`
import json, sys
import numpy as np
rows = [json.loads(l) for l in open(sys.argv[1])]
per = [(r['turn'], [x for x in r['score'] if x != -1]) for r in rows]
valid = [(t, float(np.mean(v))) for t, v in per if v]
print(json.dumps({'n': len(valid), 'invalid': sum(1 for _, v in per if not v), 'mean': float(np.mean([m for _, m in valid])),
                  'turns': {t: float(np.mean([m for tt, m in valid if tt == t])) for t in (1, 2)},
                  'partial': sum(1 for _, v in per if 0 < len(v) < 5)}))
`;

describe('MT-Bench single judgments with a list of ratings per record', () => {
  it('each record is the mean of its valid ratings; a record of -1 only is invalid; said once', () => {
    const ref = JSON.parse(execFileSync('/usr/bin/python3', ['-c', PY, FILE], { encoding: 'utf8' }));
    const r = scoreFile(FILE, { bootstrap: 0 });
    expect(r.format).toBe('mt-bench');
    expect(r.fatal).toBeUndefined();
    expect(r.n).toBe(ref.n);
    const m = r.judge!.judged!.models[0];
    expect(m.invalid).toBe(ref.invalid);
    expect(m.mean).toBeCloseTo(ref.mean, 12);
    for (const t of m.turns) expect(t.mean).toBeCloseTo(ref.turns[String(t.turn)], 12);
    const said = r.problems.filter((p) => /hold a list of 5 ratings, one per answer/.test(p.message));
    expect(said).toHaveLength(1);
    expect(said[0].message).toMatch(new RegExp(`\\(${ref.partial} of them have some -1\\)`));
  });

  it('the stepper shows every answer\'s judgment under its own heading', () => {
    const set = parseFile(FILE).set;
    const texts = set?.kind === 'scores' ? set.texts : undefined;
    expect(texts).toBeDefined();
    const at = texts!.fields.indexOf('judgment');
    expect(texts!.values[0][at]).toMatch(/### Judgment 1\n\nThe answer is adequate\. Rating: \[\[8\]\][\s\S]*### Judgment 5/);
  });
});
