// A metric card's "?" opens the metric's entry in docs/metrics.md, the copy shipped inside the
// extension (never a workspace file), rendered by VS Code's built-in Markdown preview. The preview
// scrolls to the URI's fragment, which is the heading's slug: the heading of each entry is its JSON
// key, so the fragment is the metric name itself.
import * as vscode from 'vscode';
import { METRIC_NAMES, type MetricName } from '../../core/types';

export function isMetricName(value: unknown): value is MetricName {
  return typeof value === 'string' && (METRIC_NAMES as readonly string[]).includes(value);
}

export function metricDocUri(extensionUri: vscode.Uri, metric: MetricName): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'docs', 'metrics.md').with({ fragment: metric });
}

/**
 * Opens the entry beside the report. Without the Markdown extension (disabled by the user) the
 * file opens as text instead. Returns the URI opened, or undefined for a name that is not a metric.
 */
export async function openMetricDoc(extensionUri: vscode.Uri, metric: unknown): Promise<vscode.Uri | undefined> {
  if (!isMetricName(metric)) return undefined;
  const uri = metricDocUri(extensionUri, metric);
  try {
    await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
  } catch {
    await vscode.commands.executeCommand('vscode.open', uri.with({ fragment: '' }), { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }
  return uri;
}
