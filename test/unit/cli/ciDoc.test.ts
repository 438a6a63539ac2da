// docs/ci.md's sample workflow, run locally: its YAML parses, and every `run:` step executes as
// written (bash -eo pipefail, as on a GitHub runner) in a workspace of real predictions, with the
// variables GitHub sets. Only "Install Eval Lens" is replaced: instead of `npm ci` from the network,
// the CLI is bundled from this checkout into .eval-lens/dist/cli.js.
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(__dirname, '..', '..', '..');
const doc = readFileSync(join(root, 'docs', 'ci.md'), 'utf8');
const yaml = createRequire(__filename)('js-yaml') as { load(text: string): unknown };

interface Step { name?: string; uses?: string; run?: string; if?: string }
interface Workflow { on: { pull_request: { paths: string[] } }; jobs: Record<string, { env?: Record<string, string>; steps: Step[] }> }

function workflow(): Workflow {
  const marker = doc.indexOf('<!-- ci-workflow');
  expect(marker, 'docs/ci.md marks its workflow').toBeGreaterThan(0);
  const block = /```yaml\n([\s\S]*?)```/.exec(doc.slice(marker));
  return yaml.load(block![1]) as Workflow;
}

let cli: string;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-cidoc-bin-'));
  cli = join(dir, 'dist', 'cli.js');
  await build({ entryPoints: [join(root, 'src/cli/bin.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: cli, logLevel: 'silent', external: ['@napi-rs/canvas'] });
  // The bundle finds its optional native module as an installed copy would, in node_modules beside it.
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
});

/** A checkout: predictions/ with the given example runs, and .eval-lens pointing at the built CLI. */
function workspace(runs: string[]): string {
  const ws = mkdtempSync(join(tmpdir(), 'eval-lens-cidoc-'));
  for (const run of runs) cpSync(join(root, 'examples', 'folktexts', run), join(ws, 'predictions', run), { recursive: true });
  symlinkSync(join(cli, '..', '..'), join(ws, '.eval-lens'));
  return ws;
}

interface StepResult { name: string; status: number | null; stdout: string; stderr: string }

/** Runs the job's steps like a runner: a failed step fails the job; later steps run only with if: always(). */
function runJob(ws: string): StepResult[] {
  const job = Object.values(workflow().jobs)[0];
  const env = {
    PATH: process.env.PATH, HOME: process.env.HOME, ...job.env,
    CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: ws, GITHUB_STEP_SUMMARY: join(ws, 'summary.md'),
  };
  const results: StepResult[] = [];
  let failed = false;
  for (const step of job.steps) {
    if (!step.run || step.name === 'Install Eval Lens') continue;
    if (failed && step.if !== 'always()') continue;
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], { cwd: ws, env, encoding: 'utf8' });
    results.push({ name: step.name ?? step.run, status: r.status, stdout: r.stdout, stderr: r.stderr });
    if (r.status !== 0) failed = true;
  }
  return results;
}

describe('docs/ci.md workflow', () => {
  it('is a pull-request workflow whose steps are the ones the page describes', () => {
    const wf = workflow();
    expect(wf.on.pull_request.paths).toEqual(['predictions/**']);
    const steps = Object.values(wf.jobs)[0].steps;
    expect(steps.map((s) => s.name ?? s.uses)).toEqual([
      'actions/checkout@v4', 'Check out Eval Lens', 'actions/setup-node@v4', 'Install Eval Lens',
      'Score and gate the predictions', 'Metrics as CSV', 'Reliability diagrams', 'actions/upload-artifact@v4',
    ]);
  });

  it('passes on well-calibrated predictions: summary tables, CSV and figures written', () => {
    const ws = workspace(['Mistral-7B-sim__ACSIncome__-1']);
    const steps = runJob(ws);
    expect(steps.map((s) => [s.name, s.status])).toEqual([
      ['Score and gate the predictions', 0], ['Metrics as CSV', 0], ['Reliability diagrams', 0],
    ]);
    expect(steps[0].stderr).toContain('all 2 gate checks passed (ece>0.1, auc<0.75)');
    const summary = readFileSync(join(ws, 'summary.md'), 'utf8');
    expect(summary).toContain('| metric | value | 95% interval | SE | reported |');
    expect(summary).toContain('### Gates: all 2 passed');
    expect(readFileSync(join(ws, 'eval-lens-report', 'metrics.csv'), 'utf8')).toMatch(/^path,format,kind,/);
    expect(readdirSync(join(ws, 'eval-lens-report')).sort()).toEqual(['Mistral-7B-sim__ACSIncome__-1.reliability.png', 'metrics.csv']);
  });

  it('fails the job (exit 3) when a run breaks a gate, annotates its bad rows, and still keeps the report', () => {
    const ws = workspace(['Mistral-7B-sim__ACSIncome__-1', 'broken']);
    const steps = runJob(ws);
    expect(steps.map((s) => [s.name, s.status])).toEqual([
      ['Score and gate the predictions', 3], ['Metrics as CSV', 0], ['Reliability diagrams', 0],
    ]);
    const gate = steps[0];
    expect(gate.stderr).toContain('eval-lens: gate failed: predictions/broken/broken.test_predictions.csv: ece = 0.2 > 0.1 (--fail-on "ece>0.1").');
    expect(gate.stdout).toMatch(/^::error file=predictions\/broken\/broken\.test_predictions\.csv,line=4,col=3,endColumn=6,title=Eval Lens%3A percent-probability::/m);
    expect(gate.stdout).toMatch(/^::error file=predictions\/broken\/broken\.test_predictions\.csv,title=Eval Lens gate ece>0\.1::gate failed/m);
    expect(readFileSync(join(ws, 'summary.md'), 'utf8')).toContain('❌ failed');
    expect(existsSync(join(ws, 'eval-lens-report', 'broken.reliability.png'))).toBe(true);
  });
});
