// The judge block of `eval-lens score` (terminal and Markdown) for a judge file's Report.judge, after
// the per-model group table: what the groups do not say. Judged scores by turn and by category;
// AlpacaEval's leaderboard figures; FastChat's show_result.py table; the judge's position and
// length bias; arena ratings with their rank intervals and tiers; the judge against humans. Model
// and judge names are file text: Markdown escapes them (markdownText), the terminal prints them.
import type { Report } from '../core/types';
import type { JudgeReport } from '../core/judges/types';
import { markdownTable, markdownText, type Table } from '../common/tabular';

function num(v: number | null | undefined, digits = 4): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits);
}

function ci(iv: [number, number] | null | undefined, digits = 4): string {
  return iv ? `[${num(iv[0], digits)}, ${num(iv[1], digits)}]` : '';
}

/** The judge's tables as plain tables (cells are text; `file` marks the columns holding file text). */
function judgeTables(j: JudgeReport): { title: string; table: Table; file: number[] }[] {
  const out: { title: string; table: Table; file: number[] }[] = [];
  if (j.judged) {
    const turns = [...new Set(j.judged.models.flatMap((m) => m.turns.map((t) => t.turn)))];
    if (turns.length > 1 || j.judged.models.some((m) => m.invalid)) {
      out.push({
        title: `Judged scores by turn (mean of valid grades on the judge's scale${j.judged.range ? `, ${num(j.judged.range[0], 1)}–${num(j.judged.range[1], 1)} in this file` : ''}; SE clustered by question)`,
        table: {
          columns: ['model', 'n', 'invalid', 'mean', 'SE', ...turns.map((t) => `turn ${t}`)],
          rows: j.judged.models.map((m) => [m.model, String(m.n), String(m.invalid), num(m.mean), num(m.se), ...turns.map((t) => num(m.turns.find((x) => x.turn === t)?.mean))]),
          align: ['left', 'right', 'right', 'right', 'right', ...turns.map(() => 'right' as const)],
        },
        file: [0],
      });
    }
    const cats = [...new Set(j.judged.models.flatMap((m) => m.categories.map((c) => c.category)))];
    if (cats.length) {
      out.push({
        title: `Judged scores by category (${j.judged.categoriesPath ?? 'question.jsonl'})`,
        table: {
          columns: ['model', ...cats],
          rows: j.judged.models.map((m) => [m.model, ...cats.map((c) => num(m.categories.find((x) => x.category === c)?.mean))]),
          align: ['left', ...cats.map(() => 'right' as const)],
        },
        file: [0, ...cats.map((_, i) => i + 1)],
      });
    }
  }
  if (j.win_rates) {
    const arenaHard = j.win_rate_rule === 'arena-hard';
    out.push({
      title: arenaHard
        ? "Arena-Hard-Auto score against the baseline (percent: the model's share of the battles, a tie half, a strong verdict three battles; SE clustered by question)"
        : 'AlpacaEval win rate (percent; a draw counts half; SE = sd / √n, as the leaderboard)',
      table: {
        columns: ['model', 'baseline', 'win_rate', '95% interval', 'standard_error', 'discrete_win_rate', 'n_wins', 'n_wins_base', 'n_draws', 'n_total'],
        rows: j.win_rates.map((w) => [w.category ? `${w.model} (${w.category})` : w.model, w.baseline, num(w.win_rate), ci(w.interval), num(w.standard_error), num(w.discrete_win_rate), String(w.n_wins), String(w.n_wins_base), String(w.n_draws), String(w.n_total)]),
        align: ['left', 'left', 'right', 'left', 'right', 'right', 'right', 'right', 'right', 'right'],
      },
      file: [0, 1],
    });
  }
  if (j.win_table && !j.ratings) {
    out.push({
      title: j.win_rate_rule === 'arena-hard'
        ? 'Battles won, lost and tied (each game as judged; a strong verdict counts as three battles)'
        : j.position_bias ? "Wins, losses and ties (FastChat's two-order rule, as show_result.py)" : 'Wins, losses and ties',
      table: {
        columns: ['model', 'win', 'loss', 'tie', 'win_rate', 'loss_rate', 'win_rate_adjusted'],
        rows: j.win_table.map((t) => [t.model, String(t.win), String(t.loss), String(t.tie), num(t.win_rate), num(t.loss_rate), num(t.win_rate_adjusted)]),
        align: ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
      },
      file: [0],
    });
  }
  if (j.ratings && j.rating_bootstrap) {
    const b = j.rating_bootstrap;
    out.push({
      title: `Arena ratings (Bradley–Terry by maximum likelihood, Elo scale, mean 1000; ${b.resamples} bootstrap resamples of the ${b.battles} battles, seed ${b.seed})`,
      table: {
        columns: ['rank', 'model', 'rating', '95% interval', 'rank 95%', 'tier', 'battles'],
        rows: j.ratings.map((r) => [String(r.rank), r.model, num(r.rating, 1), ci(r.interval, 1), r.rank_interval ? `${r.rank_interval[0]}–${r.rank_interval[1]}` : '', r.tier === null ? '' : String(r.tier), String(r.battles)]),
        align: ['right', 'left', 'right', 'left', 'right', 'right', 'right'],
      },
      file: [1],
    });
  }
  for (const a of j.agreement ?? []) {
    out.push({
      title: `Judge against humans: ${a.judge} against ${a.human}, ${a.n} samples; agreement ${num(a.agreement)}, Cohen's kappa ${num(a.kappa)} ${ci(a.kappa_interval)} (rows: the judge, columns: the humans)`,
      table: {
        columns: ['judge \\ human', ...a.labels],
        rows: a.labels.map((l, i) => [l, ...a.confusion[i].map(String)]),
        align: ['left', ...a.labels.map(() => 'right' as const)],
      },
      file: [0, ...a.labels.map((_, i) => i + 1)],
    });
  }
  return out;
}

/** One-line facts: the judges, invalid verdicts, position and length bias. */
function judgeFacts(j: JudgeReport): string[] {
  const out: string[] = [];
  const judges = j.judges.length ? `${j.judges.join(', ')}${j.judge_count > j.judges.length ? `, … (${j.judge_count} in all)` : ''}` : 'not named';
  out.push(`judge: ${j.kind}; ${j.models.length} model${j.models.length === 1 ? '' : 's'}; judges ${judges}`);
  if (j.invalid) out.push(`invalid verdicts: ${j.invalid} (${j.invalid_what ?? 'unreadable'}), left out of n and every figure`);
  const pb = j.position_bias;
  if (pb) out.push(`position bias: ${num(pb.rate)} ${ci(pb.interval)}: the two orders disagree on ${pb.differ} of ${pb.pairs} pairs (the answer shown first won both: ${pb.first_shown}; shown second: ${pb.second_shown}; a tie in one order: ${pb.tie_in_one})`);
  const lb = j.length_bias;
  if (lb) out.push(`length bias: ${num(lb.correlation)} ${ci(lb.interval)} over ${lb.n} comparisons (${lb.of})`);
  return out;
}

/** The terminal lines of the judge block (two-space indent, as the rest of a file's block). */
export function judgeLines(r: Report): string[] {
  const j = r.judge;
  if (!j) return [];
  const out = judgeFacts(j).map((l) => `  ${l}`);
  for (const { title, table } of judgeTables(j)) {
    out.push(`  ${title}:`);
    const widths = table.columns.map((c, k) => Math.min(40, Math.max(c.length, ...table.rows.map((row) => String(row[k]).length))));
    const cell = (v: string, k: number) => {
      const s = v.length > widths[k] ? `${v.slice(0, widths[k] - 1)}…` : v;
      return table.align?.[k] === 'right' ? s.padStart(widths[k]) : s.padEnd(widths[k]);
    };
    out.push(`    ${table.columns.map((c, k) => cell(c, k)).join('  ')}`.trimEnd());
    for (const row of table.rows) out.push(`    ${row.map((v, k) => cell(String(v), k)).join('  ')}`.trimEnd());
  }
  return out;
}

/** The Markdown of the judge block (file text escaped). */
export function judgeMarkdown(r: Report): string[] {
  const j = r.judge;
  if (!j) return [];
  const out: string[] = ['', ...judgeFacts(j).map((l) => `- ${markdownText(l)}`), ''];
  for (const { title, table, file } of judgeTables(j)) {
    // Our own cells (numbers, intervals) stay as written; the file's names are escaped (and every header is).
    const raw = table.columns.map((_, k) => k).filter((k) => !file.includes(k));
    out.push(`**${markdownText(title)}**`, '', markdownTable(table, raw), '');
  }
  return out;
}

/**
 * CSV rows of a judge file's per-model figures, in score --csv's columns: the metric named
 * `model:<name>:<metric>` (as a task's own metric is `task:<name>`), n the model's verdicts, its
 * interval and standard error.
 */
export function judgeCsvRows(r: Report): (string | number | null | undefined)[][] {
  if (!r.judge || !r.groups || r.groups.column !== 'model') return [];
  const rows: (string | number | null | undefined)[][] = [];
  for (const g of r.groups.groups) {
    for (const [metric, value] of Object.entries(g.metrics)) {
      if (metric === 'stderr' || value === undefined) continue;
      const ci = g.intervals[metric as keyof typeof g.intervals];
      // The group's stderr is its grade's or its AlpacaEval win rate's (a two-order win rate has none).
      const se = metric === 'judge_score' || (metric === 'win_rate' && r.judge.win_rates) ? g.metrics.stderr : undefined;
      rows.push([r.path, r.format, r.kind, r.task ?? '', g.n, r.skipped, r.unlabeled, `model:${g.value}:${metric}`, value, ci?.[0], ci?.[1], null, r.fatal ?? '', se ?? null]);
    }
  }
  return rows;
}
