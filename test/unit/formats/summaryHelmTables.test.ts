// HELM's leaderboard tables (helm-summarize: groups/<group>.json, a list of tables; groups/json/
// <group>_<metric group>.json, one table), from HELM's own committed safety suite (NOTICE.md).
// Before, both were generic refusals ("No prediction fields were recognised").
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { detectFormat } from '../../../src/core/formats/detect';

const SUITE = resolve(__dirname, '../../fixtures/real/helm/helm-safety-v4');

const PY = String.raw`
import json, sys
doc = json.load(open(sys.argv[1]))
tables = doc if isinstance(doc, list) else [doc]
out = {}
for t in tables:
    head = [h['value'] for h in t['header']]
    for row in t['rows']:
        for i, c in enumerate(row):
            v = c.get('value')
            if i and isinstance(v, (int, float)) and not isinstance(v, bool):
                prefix = t['title'] + '/' if len(tables) > 1 and t['title'] else ''
                out[f"{prefix}{row[0]['value']}/{head[i]}"] = v
print(json.dumps({'figures': out, 'tables': len(tables)}))
`;

describe('HELM leaderboard tables', () => {
  for (const rel of ['groups/safety_scenarios.json', 'groups/json/xstest_xstest_.json']) {
    it(`${rel} is a summary: every numeric cell under its row's model and its column`, () => {
      const path = join(SUITE, rel);
      expect(detectFormat(path, readFileSync(path, 'utf8').slice(0, 16384))).toBe('summary');
      const ref = JSON.parse(execFileSync('/usr/bin/python3', ['-c', PY, path], { encoding: 'utf8' }));
      const r = scoreFile(path, { bootstrap: 0 });
      expect(r.fatal).toBeUndefined();
      expect(r.summary?.harness).toBe('HELM');
      expect(Object.keys(r.reported!).sort()).toEqual(Object.keys(ref.figures).sort());
      for (const [k, v] of Object.entries(ref.figures as Record<string, number>)) expect(r.reported![k]).toBeCloseTo(v, 12);
    });
  }
});
