// The report of a tab just closed, kept a while for its file opened again (issue 28, point 11: the
// same 1M-row file clicked again in the Explorer took as long as the first time, because it was
// scored again: 0.3-0.8 s of the worker's time on two busy cores, while the webview boots). One
// report is kept, with its chart data, its encoded instance pages and its intervals, for KEEP_MS,
// and only while it still stands: the same path, the same scoring options (settings, Group by,
// Cluster by, a forced format...; no joined data file: activate.ts gives no key then), the file
// unchanged (mtime and size, as scored) and no unsaved edits. The caller scores the file once more after showing it, without instances or intervals, and
// replaces it when the numbers differ (a companion file, which the stamp does not cover, changed).
// Pure: no `vscode`, no file system (the caller stats the file).
import type { PanelScoreResult } from './panelModel';

/** How long a closed tab's report is kept. */
export const KEEP_MS = 5 * 60_000;
/** Reports whose instance pages are larger than this are not kept (the extension host's memory). */
export const KEEP_MAX_BYTES = 48 * 2 ** 20;

export interface KeptReport {
  path: string;
  /** The scoring options it was made with, as a string (ReportPanel.scoreKey). */
  key: string;
  result: PanelScoreResult;
  /** Bytes of its encoded instance pages. */
  bytes: number;
  /** Date.now() when it was kept. */
  at: number;
}

/** Bytes of the encoded per-instance columns (and texts) a panel result holds. */
export function panelBytes(result: PanelScoreResult): number {
  let bytes = 0;
  for (const p of result.panel ?? []) {
    for (const page of p.instances?.pages ?? []) for (const a of Object.values(page.data)) bytes += (a as ArrayBufferView | undefined)?.byteLength ?? 0;
  }
  return bytes;
}

/**
 * What to keep of a closed tab, or why nothing is kept. `intervalsDone`: the intervals pass the
 * result was waiting for has arrived (a report kept without them would say "computing intervals…"
 * with no pass running).
 */
export function keepable(
  path: string, key: string | undefined, result: PanelScoreResult | undefined, intervalsDone: boolean, now: number,
): KeptReport | { not: string } {
  if (!path || !result) return { not: 'nothing shown' };
  if (key === undefined) return { not: 'no scoring options to compare' };
  if (!result.stamp) return { not: 'the file changed while it was scored' };
  if (!result.panel) return { not: 'no chart data' };
  if (result.intervalsPending && !intervalsDone) return { not: 'its intervals had not arrived' };
  const bytes = panelBytes(result);
  if (bytes > KEEP_MAX_BYTES) return { not: `its instance pages are ${(bytes / 2 ** 20).toFixed(0)} MB` };
  // The intervals are in the reports now: nothing is pending for the page.
  const { intervalsPending: _done, ...kept } = result;
  return { path, key, result: kept, bytes, at: now };
}

/**
 * The kept report when it stands for `path` now, else undefined. `stamp`: the file's mtime and
 * size now (undefined when it cannot be read); `dirty`: the file is open with unsaved edits.
 */
export function keptFor(
  kept: KeptReport | undefined, path: string, key: string | undefined, stamp: { mtime: number; size: number } | undefined, dirty: boolean, now: number,
): PanelScoreResult | undefined {
  if (!kept || kept.path !== path || key === undefined || kept.key !== key || dirty) return undefined;
  if (now - kept.at > KEEP_MS) return undefined;
  const was = kept.result.stamp;
  if (!stamp || !was || stamp.mtime !== was.mtime || stamp.size !== was.size) return undefined;
  return kept.result;
}
