// The cards' "?" and tooltips point at docs/metrics.md#<metric>: every metric must have that entry,
// the tooltip must carry the one-line definition and the link, and the reference's own links must
// land on a heading or an explicit anchor.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { METRIC_NAMES } from '../../../src/core/types';
import { METRIC_INFO, metricDocAnchor, metricTooltip } from '../../../webview/common/format';

const DOC = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'metrics.md'), 'utf8');

/** GitHub's and VS Code's heading slug: lower case, punctuation other than - and _ dropped, spaces to -. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
const headings = [...DOC.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]));
const anchors = new Set([...headings, ...[...DOC.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1])]);

describe('docs/metrics.md as the cards\' reference', () => {
  it('has one entry whose heading is the JSON key, for every metric name', () => {
    for (const name of METRIC_NAMES) {
      expect(headings.filter((h) => h === name), name).toHaveLength(1);
      expect(DOC, name).toContain(`JSON: \`${name === 'raft_score' ? 'summary' : 'metrics'}.${name}\``);
    }
  });

  it('gives each card a tooltip with its one-line definition and the link to its entry', () => {
    for (const name of METRIC_NAMES) {
      const tip = metricTooltip(name, '0.043 [0.031, 0.056]');
      expect(tip.split('\n')).toEqual([METRIC_INFO[name].help, '0.043 [0.031, 0.056]', `Definition: docs/metrics.md#${name} (the ? button opens it)`]);
      expect(METRIC_INFO[name].help.length).toBeGreaterThan(10);
      expect(anchors.has(metricDocAnchor(name).split('#')[1])).toBe(true);
    }
  });

  it('links only to anchors that exist in the file', () => {
    const links = [...DOC.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(30);
    expect(links.filter((l) => !anchors.has(l))).toEqual([]);
  });

  it('names the comparison tests and folktexts\' fairness keys', () => {
    for (const a of ['delta', 'delong', 'mcnemar', 'bootstrap_p', 'holm', 'best', 'ece_scaled', 'equalized_odds_ratio', 'equalized_odds_diff']) expect(anchors.has(a), a).toBe(true);
    for (const key of ['tpr', 'fnr', 'fpr', 'tnr', 'balanced_accuracy', 'precision', 'ppr']) expect(DOC).toContain(`| \`${key}\` |`);
  });
});
