// Large reports kept on disk across window reloads (issue 28, point 11). After "Reload Window" (or
// a restart), a click on a 1M-row file it had shown scored the file again: the parse and the first
// pass (~0.6 s of a worker's CPU) on two cores that the reloading workbench, the text editor's read
// of the file and the booting webview already share (first chart 2.1-2.9 s after the click), then
// its intervals. The report of a closed tab is kept in memory a while (keptReport.ts); this keeps
// the complete reports of the newest large files (chart data, instance pages and intervals) in the
// extension's own storage, where they stand, as the kept one does, for the file at the mtime and
// size they were made from, with the same scoring options, and for this build of the extension
// only. Shown, each is checked as the kept one is: the file scored again without instances or
// intervals, and scored anew when its numbers differ (a companion file changed).
//
// The format is V8's own serialisation (node:v8), which writes typed arrays as their bytes: a
// report of a million rows holds 14.3 MB of instance pages; V8 (de)serialises such a payload in ~10 ms. Nothing of the user's
// is written: only the extension's global storage folder.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { keptFor, type KeptReport } from './keptReport';

/** How many reports are kept on disk: the newest (a report shown again is written again). */
export const STORED_MAX = 2;
/**
 * Reports whose instance pages are smaller than this are not stored: such a file is parsed and
 * scored again in well under a second (a 1M-row folktexts report's pages are 14.3 MB).
 */
export const STORED_MIN_BYTES = 2 * 2 ** 20;

const SUFFIX = '.report';
/** Beside each report, what it stands for (StoredHead), read first: a report that does not stand is never read. */
const HEAD_SUFFIX = '.head.json';

/** What a stored report stands for, in a small file of its own. */
interface StoredHead {
  format: 1;
  code: string;
  path: string;
  key: string;
  stamp: { mtime: number; size: number } | undefined;
}

interface StoredFile {
  /** This module's format, and the extension build that wrote it (its scoring worker's stamp). */
  format: 1;
  code: string;
  kept: KeptReport;
}

export class StoredReports {
  /** Reports written and read back (tests, logs). */
  readonly counts = { saved: 0, loaded: 0 };
  private writing: Promise<unknown> = Promise.resolve();

  constructor(private readonly dir: string, private readonly code: string, private readonly minBytes = STORED_MIN_BYTES) {}

  /**
   * Writes `kept` (a complete report: intervals arrived) for its path, replacing the one stored for
   * it, and drops all but the STORED_MAX newest. Writes one at a time; errors are the caller's to log.
   */
  save(kept: KeptReport): Promise<boolean> {
    if (kept.bytes < this.minBytes || kept.result.intervalsPending) return Promise.resolve(false);
    const file: StoredFile = { format: 1, code: this.code, kept };
    const run = this.writing.then(async () => {
      await mkdir(this.dir, { recursive: true });
      const target = this.fileOf(kept.path);
      // The same report stored already (a file opened again after its pass was made anew): no
      // second copy written.
      if (await this.headStands(target, kept.path, kept.key, kept.result.stamp)) return false;
      const partial = `${target}.${process.pid}.partial`;
      const head: StoredHead = { format: 1, code: this.code, path: kept.path, key: kept.key, stamp: kept.result.stamp };
      // The head last: a head is there only beside the whole report it describes.
      await unlink(headOf(target)).catch(() => undefined);
      await writeFile(partial, serialize(file));
      await rename(partial, target);
      await writeFile(`${partial}.head`, JSON.stringify(head));
      await rename(`${partial}.head`, headOf(target));
      this.counts.saved++;
      await this.prune();
      return true;
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  /**
   * The report stored for `path` when it stands for it now: the same scoring options (`key`), the
   * file at the same mtime and size (`stamp`), no unsaved edits, this build. Undefined otherwise,
   * and when nothing readable is stored.
   */
  async load(path: string, key: string | undefined, stamp: { mtime: number; size: number } | undefined, dirty: boolean): Promise<KeptReport | undefined> {
    if (key === undefined || !stamp || dirty) return undefined;
    let file: StoredFile;
    try {
      await this.writing;
      const target = this.fileOf(path);
      // The small head first: a report of another stamp or options (the file rewritten) is not read.
      if (!(await this.headStands(target, path, key, stamp))) return undefined;
      file = deserialize(await readFile(target)) as StoredFile;
    } catch {
      return undefined;
    }
    if (!file || file.format !== 1 || file.code !== this.code || !file.kept) return undefined;
    // No age limit: it stands while the file and the options do.
    if (!keptFor(file.kept, path, key, stamp, dirty, file.kept.at)) return undefined;
    this.counts.loaded++;
    return ownBuffers(file.kept);
  }

  /** Forgets what is stored for `path` (it no longer stands: the file changed, or its report differs). */
  async forget(path: string): Promise<void> {
    await this.writing;
    await unlink(headOf(this.fileOf(path))).catch(() => undefined);
    await unlink(this.fileOf(path)).catch(() => undefined);
  }

  /** Whether the head beside `target` says it is `path`'s report for `key` and `stamp`, of this build. */
  private async headStands(target: string, path: string, key: string, stamp: { mtime: number; size: number } | undefined): Promise<boolean> {
    try {
      const head = JSON.parse(await readFile(headOf(target), 'utf8')) as StoredHead;
      return head.format === 1 && head.code === this.code && head.path === path && head.key === key
        && !!stamp && head.stamp?.mtime === stamp.mtime && head.stamp?.size === stamp.size;
    } catch {
      return false;
    }
  }

  private fileOf(path: string): string {
    return join(this.dir, `${createHash('sha256').update(path).digest('hex').slice(0, 32)}${SUFFIX}`);
  }

  private async prune(): Promise<void> {
    const names = (await readdir(this.dir)).filter((n) => n.endsWith(SUFFIX));
    if (names.length <= STORED_MAX) return;
    const dated = await Promise.all(names.map(async (n) => ({ n, t: (await stat(join(this.dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })));
    dated.sort((a, b) => b.t - a.t);
    await Promise.all(dated.slice(STORED_MAX).flatMap((d) => [unlink(headOf(join(this.dir, d.n))).catch(() => undefined), unlink(join(this.dir, d.n)).catch(() => undefined)]));
  }
}

function headOf(reportFile: string): string {
  return reportFile.slice(0, -SUFFIX.length) + HEAD_SUFFIX;
}

/**
 * `value` with every typed array that is a view into a larger buffer replaced by a copy of its own
 * bytes (in place). node:v8's deserializer may hand out views into the whole file's buffer, and a
 * view travels to the webview (postMessage) with all of its buffer: a report's instance pages from
 * disk then took 9-12 s to reach the table instead of ~1.2 s, each page carrying the whole buffer.
 */
export function ownBuffers<T>(value: T): T {
  const seen = new Set<object>();
  const walk = (v: unknown): unknown => {
    if (ArrayBuffer.isView(v)) {
      if (v.byteLength === v.buffer.byteLength || v instanceof DataView) return v;
      return (v as unknown as { slice(): unknown }).slice();
    }
    if (!v || typeof v !== 'object' || seen.has(v)) return v;
    seen.add(v);
    if (Array.isArray(v)) for (let k = 0; k < v.length; k++) v[k] = walk(v[k]);
    else for (const k of Object.keys(v)) (v as Record<string, unknown>)[k] = walk((v as Record<string, unknown>)[k]);
    return v;
  };
  return walk(value) as T;
}
