// Which charts a scored file can give, and in plain words why not the others: `eval-lens plot` and
// the panel ask here before drawing, so a file without confidences is told which charts it has
// instead of meeting an error inside a chart builder.
import type { Report } from './types';
import { baseName } from '../common/paths';

/** The charts of a report, as `eval-lens plot --chart` names them. */
export const CHART_NAMES = ['reliability', 'roc', 'histogram', 'scatter', 'groups', 'smooth-reliability'] as const;
export type ChartName = (typeof CHART_NAMES)[number];

export interface ChartAvailability {
  chart: ChartName;
  available: boolean;
  /** Why not, in a sentence about the file (no internal names), when it is not available. */
  why?: string;
}

type ReportLike = Pick<Report, 'path' | 'kind' | 'n' | 'fatal' | 'bins' | 'roc' | 'groups' | 'problems'> & Partial<Pick<Report, 'smoothReliability'>>;

const KIND_WORDS: Record<Report['kind'], string> = {
  binary: 'risk scores with 0/1 labels',
  multiclass: 'class predictions',
  confidence: 'confidences with correctness',
  probability: 'predicted against true probabilities',
  scores: 'per-sample scores without a gold label',
};

function whyNot(chart: ChartName, r: ReportLike): string | undefined {
  const name = baseName(r.path);
  const what = KIND_WORDS[r.kind];
  switch (chart) {
    case 'reliability':
      return r.bins ? undefined : `the reliability diagram needs a confidence or probability for each answer, and ${name} holds ${what} without one`;
    case 'histogram':
      if (r.kind === 'probability') return `the confidence histogram needs a confidence for each answer; ${name} holds predicted against true probabilities`;
      return r.bins ? undefined : `the confidence histogram needs a confidence for each answer, and ${name} holds ${what} without one`;
    case 'roc':
      return r.roc ? undefined : `the ROC curve needs risk scores with 0/1 labels; ${name} holds ${what}`;
    case 'scatter':
      return r.kind === 'probability' ? undefined : `the scatter plots predicted against true probabilities (ALMANACS); ${name} holds ${what}`;
    case 'smooth-reliability':
      if (r.kind === 'probability') return `the smoothed reliability diagram needs a confidence or a risk score for each answer; ${name} holds predicted against true probabilities`;
      return r.smoothReliability ? undefined : `the smoothed reliability diagram needs a confidence for each answer, and ${name} holds ${what} without one`;
    case 'groups': {
      if (!r.groups?.groups.length) {
        const p = r.problems.find((x) => x.code === 'group-column');
        return `${name} has no groups${p ? `: ${p.message.replace(/\.$/, '')}` : ' (group it by a column first)'}`;
      }
      return r.groups.groups.some((g) => g.bins?.some((b) => b.count > 0)) ? undefined : `the groups of ${name} have no reliability bins (no confidences)`;
    }
  }
}

/** Every chart with whether this report can give it, and why not. */
export function availableCharts(r: ReportLike): ChartAvailability[] {
  if (r.fatal || r.n === 0) {
    const why = `${baseName(r.path)} was not scored${r.fatal ? `: ${r.fatal.replace(/\.$/, '')}` : ''}`;
    return CHART_NAMES.map((chart) => ({ chart, available: false, why }));
  }
  return CHART_NAMES.map((chart) => {
    const why = whyNot(chart, r);
    return why === undefined ? { chart, available: true } : { chart, available: false, why };
  });
}

/**
 * The sentence for a chart a report cannot give: why, and which charts it can give instead
 * ("… ; this file can give: roc"), or undefined when it can.
 */
export function chartUnavailableMessage(chart: ChartName, r: ReportLike): string | undefined {
  const all = availableCharts(r);
  const asked = all.find((c) => c.chart === chart)!;
  if (asked.available) return undefined;
  // (The smoothed diagram goes with the binned one: naming reliability is enough.)
  const others = all.filter((c) => c.available && c.chart !== 'groups' && c.chart !== 'smooth-reliability').map((c) => c.chart);
  const instead = r.fatal || r.n === 0 ? '' : others.length ? `; this file can give: ${others.join(', ')}` : '; this file gives no chart, only its metrics';
  return `${asked.why}${instead}.`;
}
