// Task metrics for the CLI's documents and the report page (src/common/taskMetrics.ts): when the
// task's reported figure disagrees with the samples' mean, and the spelling non-finite figures take
// on their way to the page (a webview message is JSON: Infinity would arrive as null).
import { describe, expect, it } from 'vitest';
import { taskMetricDisagrees, taskMetricsFromWire, taskMetricsToWire } from '../../../src/common/taskMetrics';

describe('task metrics', () => {
  it('disagree as the core\'s reported figures do (5e-4 or 1e-3 relative), and non-finite ones by spelling', () => {
    expect(taskMetricDisagrees({ mean: 42.57446, reported: 42.5745 })).toBe(false);
    expect(taskMetricDisagrees({ mean: 42.57446, reported: 40 })).toBe(true);
    expect(taskMetricDisagrees({ mean: Infinity, reported: Infinity })).toBe(false);
    expect(taskMetricDisagrees({ mean: NaN, reported: NaN })).toBe(false);
    expect(taskMetricDisagrees({ mean: 4.26, reported: Infinity })).toBe(true);
    expect(taskMetricDisagrees({ mean: Infinity, reported: -Infinity })).toBe(true);
    expect(taskMetricDisagrees({ mean: 0.5, reported: null })).toBe(false);
    expect(taskMetricDisagrees({ mean: null, reported: 0.5 })).toBe(false);
  });

  it('survive JSON on the way to the page, NaN and infinities included', () => {
    const tms = [
      { name: 'mae', n: 24, mean: Infinity, interval: [3.2449375, 5.442083333333333] as [number, number], reported: Infinity },
      { name: 'odd', n: 3, mean: NaN, reported: -Infinity },
      { name: 'eqbench', n: 40, mean: 42.57446, reported: null },
      { name: 'bleu', n: 5, mean: 0.25 },
    ];
    const back = taskMetricsFromWire(JSON.parse(JSON.stringify(taskMetricsToWire(tms))));
    expect(back).toEqual(tms);
    // Numbers pass through: the page reads both forms.
    expect(taskMetricsFromWire(tms)).toEqual(tms);
  });
});
