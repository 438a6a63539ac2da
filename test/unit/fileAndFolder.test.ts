// A file reads the same alone or in its folder (issue 26.2), and where figures go in JSON (26.3):
// for every file under test/fixtures and examples, `score FILE --json` gives the result that file
// has in `score FOLDER --json` (its outcome, its fatal with any hint, its format); each file is one
// result with its own path (a file holding several tasks: one per task, each with the file's path),
// also where an adapter reads a file's siblings (HELM run folders, lm-eval samples beside results).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { isDataFile } from '../../src/core/unscored';
import { scoreInput } from '../../src/core/score';
import { textInput } from '../../src/core/formats/context';

const root = join(__dirname, '..', '..');
const ROOTS = [join(root, 'test', 'fixtures'), join(root, 'examples')];

interface Result { path: string; format: string; task?: string; n: number; notScored?: boolean; fatal?: string; summary?: unknown; reported: Record<string, unknown> }

async function results(path: string): Promise<Result[]> {
  return JSON.parse((await runCli(['score', path, '--json'])).stdout).results;
}

/** What must agree: whether anything was read, the words of a refusal (with its hint), the format. */
function outcome(r: Result) {
  return {
    path: r.path, task: r.task ?? null, format: r.format, n: r.n, notScored: !!r.notScored, fatal: r.fatal ?? null,
    summary: !!r.summary, reported: Object.keys(r.reported).length,
  };
}

/** Every folder below the roots that holds a file. */
function foldersWithFiles(dir: string): string[] {
  const entries = readdirSync(dir).map((n) => join(dir, n));
  const here = entries.some((p) => statSync(p).isFile()) ? [dir] : [];
  return [...here, ...entries.filter((p) => statSync(p).isDirectory()).flatMap(foldersWithFiles)];
}

const folders = ROOTS.flatMap(foldersWithFiles);

describe('a file reads the same alone or in its folder', () => {
  it('finds the fixtures', () => {
    expect(folders.length).toBeGreaterThan(20);
  });

  it.each(folders.map((f) => [f.slice(root.length + 1), f]))('%s', async (_name, folder) => {
    const inFolder = (await results(folder)).filter((r) => dirname(r.path) === folder);
    // Every data file of the folder is a result, with its own path: none dropped, none merged into a sibling's.
    const dataFiles = readdirSync(folder).map((n) => join(folder, n)).filter((p) => statSync(p).isFile() && isDataFile(p));
    expect([...new Set(inFolder.map((r) => r.path))]).toEqual(expect.arrayContaining(dataFiles));
    const keys = inFolder.map((r) => `${r.path}\u0000${r.task ?? ''}`);
    expect(new Set(keys).size, 'one result per file (and task)').toBe(keys.length);
    for (const file of new Set(inFolder.map((r) => r.path))) {
      const alone = await results(file);
      // Alone, every result is the file's own.
      expect(alone.map((r) => r.path).every((p) => p === file), file).toBe(true);
      expect(alone.map(outcome), file).toEqual(inFolder.filter((r) => r.path === file).map(outcome));
      // The same text as an unsaved editor buffer (the VS Code path) reads the same too.
      if (/\.(csv|tsv|jsonl|json)$/i.test(file) && statSync(file).size < 4 * 1024 * 1024) {
        const buffer = scoreInput(textInput(file, readFileSync(file, 'utf8')), { instances: false });
        const first = alone[0];
        expect([buffer.format, !!buffer.notScored, buffer.fatal ?? null, buffer.n], `${file} as a buffer`).toEqual([first.format, !!first.notScored, first.fatal ?? null, first.n]);
      }
    }
  }, 120_000);
});

describe('where figures go in JSON', () => {
  it('a HELM run folder: one result per file with its own path, though its reader reads the siblings', async () => {
    const run = join(root, 'test', 'fixtures', 'real', 'helm', 'mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2');
    const got = await results(run);
    expect(got.map((r) => r.path).sort()).toEqual(readdirSync(run).map((n) => join(run, n)).sort());
    // stats.json's figures are its own result's, not folded into another file's.
    const stats = got.find((r) => r.path === join(run, 'stats.json'))!;
    expect(stats.format).toBe('summary');
    expect(Object.keys(stats.reported).length).toBeGreaterThan(0);
  });

  it("an lm-eval run: each samples file and the results file are results of their own, each with its path", async () => {
    const run = join(root, 'test', 'fixtures', 'real', 'lm-eval', 'Qwen__Qwen3-8B');
    const got = await results(run);
    expect(got.map((r) => r.path).sort()).toEqual(readdirSync(run).map((n) => join(run, n)).sort());
    for (const r of got) expect((await results(r.path)).map((x) => x.path)).toEqual([r.path]);
  });
});
