// The page tells the host (and tests, through data- attributes) when a report is painted and when
// its instances are all here, timed from the 'reports' message.
import type { Report } from '../../src/core/types';
import { post } from '../common/vscodeApi';
import { instanceCount } from './data';
import type { Loaded } from './loaded';

/** Posts 'instancesReady' once per report and load, when its table (and stepper) exist. */
export function announceInstances(current: Loaded, k: number, report: Report): void {
  if ( current.instancesPosted.has(k)) return;
  current.instancesPosted.add(k);
  requestAnimationFrame(() => {
    const ms = Math.round(performance.now() - current.receivedAt);
    post({ type: 'instancesReady', path: current.path, selected: k, ms, rows: instanceCount(report) });
    document.body.dataset.instancesMs = String(ms);
    document.body.dataset.instances = String(instanceCount(report));
  });
}

/**
 * Marks the first frame painted with the report's first chart (data-first-chart-ms, from the
 * 'reports' message): what the user waits for; the other charts follow (ChartSlots.drawFirstThenRest).
 */
export function announceFirstChart(current: Loaded): void {
  if (current.firstChartMarked) return;
  current.firstChartMarked = true;
  requestAnimationFrame(() => requestAnimationFrame(() => {
    document.body.dataset.firstChartMs = String(Math.round(performance.now() - current.receivedAt));
  }));
}

/** Posts 'rendered' once the first frame with all the charts has been painted. */
export function announceRendered(current: Loaded, selected: number, report: Report | null): void {
  if ( current.renderedPosted) return;
  current.renderedPosted = true;
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const ms = Math.round(performance.now() - current.receivedAt);
    post({ type: 'rendered', path: current.path, selected, ms, token: current.token });
    // For tests: what was rendered, and how long it took from the message to the painted charts.
    document.body.dataset.renderedMs = String(ms);
    document.body.dataset.receivedAt = String(Math.round(current.receivedAt));
    document.body.dataset.rendered = report?.path ?? current.path;
  }));
}
