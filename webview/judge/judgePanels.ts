// The judge panels of the report page (issue 27), drawn from Report.judge alone (it arrives with
// the first message, before the per-instance columns): judged scores (each model's distribution of
// grades, its mean per turn and per category with clustered intervals), pairwise preferences (win
// rates, the win/tie/loss bar of each pair, the position and length bias in words), arena ratings
// (the table, a forest plot, the predicted win probabilities) and the judge against humans
// (agreement, Cohen's kappa, the confusion table). Every text from the file (model names, labels)
// goes in through textContent; every number the table shows is also in a data attribute at full
// precision (the end-to-end tests read them).
import './judge.css';
import type { MetricName, Report } from '../../src/core/types';
import { el } from '../common/dom';
import { formatCount, formatMetric } from '../common/format';
import { post } from '../common/vscodeApi';
import { baseName } from '../../src/common/paths';
import type { ChartSlots } from '../report/chartSlots';
import { notApplicable } from '../report/reportParts';
import { scoreDistributionChart, judgedMeansChart, ratingsForestChart, winTieLossChart } from './judgeCharts';
import { pairsToDraw, MAX_PAIRS_DRAWN } from '../../src/charts/winTieLoss';
import { agreementWords, invalidWords, lengthBiasWords, meanText, positionBiasWords, winProbabilityMatrix } from './judgeWords';

type Judge = NonNullable<Report['judge']>;
type JudgedModel = NonNullable<Judge['judged']>['models'][number];

/** At most this many models get a row and a column of the win-probability matrix. */
export const MAX_MATRIX_MODELS = 25;

/** "?": the figure's entry in docs/metrics.md. */
function docButton(metric: MetricName, label: string): HTMLElement {
  return el('button', {
    className: 'metric-doc', text: '?', title: `What is ${label}? Opens its definition (docs/metrics.md#${metric})`,
    attrs: { type: 'button', 'aria-label': `Definition of ${label}` },
    data: { doc: metric, focusKey: `judge-doc-${metric}` },
    onClick: () => post({ type: 'openMetricDoc', metric }),
  });
}

function heading(level: 'h2' | 'h3', text: string, doc?: [MetricName, string]): HTMLElement {
  return el('div', { className: 'judge-heading' }, [el(level, { text }), doc ? docButton(doc[0], doc[1]) : null]);
}

function th(text: string, title?: string): HTMLElement {
  return el('th', { text, attrs: { scope: 'col' }, ...(title ? { title } : {}) });
}

function num(value: number | null | undefined, digits = 3, data?: Record<string, string | number>): HTMLElement {
  return el('td', { className: 'numeric', text: formatMetric(value, digits), data: { value: value === null || value === undefined ? '' : value, ...data } });
}

function count(value: number): HTMLElement {
  return el('td', { className: 'numeric', text: formatCount(value), data: { value } });
}

/** A table in a box that scrolls sideways (and down, when tall): a focusable, named region. */
function tableBox(table: HTMLElement, label: string, tall = false): HTMLElement {
  return el('div', { className: `judge-table-wrap${tall ? ' tall' : ''}`, attrs: { tabindex: '0', role: 'region', 'aria-label': `${label} (scrolls)` } }, [table]);
}

function intervalText(interval: [number, number] | null | undefined, digits = 3): string {
  return interval ? `[${formatMetric(interval[0], digits)}, ${formatMetric(interval[1], digits)}]` : '—';
}

// ---------------------------------------------------------------------------------------------
// Judged scores

function meanCell(m: { mean: number | null; se: number | null; interval: [number, number] | null; questions: number; n: number }, key: string, compact = false): HTMLElement {
  // Compact (the categories' table): the mean, and its interval on a second line.
  const children = compact ? [
    el('span', { text: formatMetric(m.mean) }),
    el('span', { className: 'judge-ci muted', text: m.interval ? intervalText(m.interval) : m.questions < 2 ? 'one question' : 'no interval' }),
  ] : [];
  return el('td', {
    className: `numeric${compact ? ' compact' : ''}`,
    ...(compact ? {} : { text: meanText(m) }),
    title: `n = ${formatCount(m.n)} verdicts over ${formatCount(m.questions)} questions; SE ${formatMetric(m.se)} (clustered by question)`,
    data: { mean: m.mean ?? '', lo: m.interval?.[0] ?? '', hi: m.interval?.[1] ?? '', n: m.n, key },
  }, children);
}

function judgedMeansTable(models: readonly JudgedModel[]): HTMLElement {
  const turns = [...new Set(models.flatMap((m) => m.turns.map((t) => t.turn)))].sort((a, b) => a - b);
  const table = el('table', { className: 'judge-table', attrs: { id: 'judge-means-table' } }, [
    el('caption', { className: 'sr-only', text: 'Mean judge score per model and turn, with 95% intervals' }),
    el('thead', {}, [el('tr', {}, [
      th('model'), th('n', 'Valid verdicts'), th('invalid', 'Verdicts that could not be read, left out'),
      th('mean [95% CI]', 'Mean of the valid grades on the judge\'s scale; interval: mean ± t(questions − 1) · SE'),
      th('SE', 'Standard error clustered by question (the turns of one question are one cluster)'), th('questions'),
      ...turns.map((t) => th(`turn ${t} [95% CI]`)),
    ])]),
    el('tbody', {}, models.map((m) => el('tr', { data: { model: m.model } }, [
      el('th', { text: m.model, attrs: { scope: 'row' } }),
      count(m.n), count(m.invalid),
      meanCell(m, 'all'),
      num(m.se),
      count(m.questions),
      ...turns.map((t) => {
        const turn = m.turns.find((x) => x.turn === t);
        return turn ? meanCell(turn, `turn-${t}`) : el('td', { className: 'numeric', text: '—' });
      }),
    ]))),
  ]);
  return tableBox(table, 'Mean judge score per model and turn');
}

function categoriesTable(models: readonly JudgedModel[], source?: string): HTMLElement | null {
  const categories = models[0]?.categories.map((c) => c.category) ?? [];
  if (!categories.length) return null;
  const table = el('table', { className: 'judge-table', attrs: { id: 'judge-categories-table' } }, [
    el('caption', { className: 'sr-only', text: 'Mean judge score per model and category, with 95% intervals' }),
    el('thead', {}, [el('tr', {}, [th('model'), ...categories.map((c) => th(c))])]),
    el('tbody', {}, models.map((m) => el('tr', { data: { model: m.model } }, [
      el('th', { text: m.model, attrs: { scope: 'row' } }),
      ...categories.map((c) => {
        const cat = m.categories.find((x) => x.category === c);
        return cat ? meanCell(cat, `category-${c}`, true) : el('td', { className: 'numeric', text: '—' });
      }),
    ]))),
  ]);
  return el('div', {}, [
    heading('h3', 'Mean per category'),
    el('p', { className: 'caption muted', text: `Categories from ${source ? baseName(source) : 'question.jsonl'}. Each cell: the mean, and under it its 95% interval; a category with one question has none.` }),
    tableBox(table, 'Mean judge score per model and category'),
  ]);
}

function judgedSection(judge: Judge, slots: ChartSlots): HTMLElement | null {
  const judged = judge.judged;
  if (!judged) return null;
  const models = judged.models;
  const range = judged.range ? `${formatMetric(judged.range[0], 1)}–${formatMetric(judged.range[1], 1)}` : 'none';
  const withVerdicts = models.filter((m) => m.n > 0);
  const rows = withVerdicts.length * (1 + Math.max(0, ...withVerdicts.map((m) => m.turns.length)));
  return el('section', { className: 'section judge-section', attrs: { id: 'section-judged' } }, [
    heading('h2', 'Judged scores', ['judge_score', 'Judge score']),
    el('p', { className: 'caption muted', text: `Grades on the judge's own scale (${range} in this file; nothing is rescaled). Each model's mean is over its valid verdicts; its standard error is clustered by question, since the turns of one question are answers in one conversation.` }),
    judgedMeansTable(models),
    categoriesTable(models, judged.categoriesPath),
    el('div', { className: 'chart-grid' }, [
      withVerdicts.length ? slots.box('judge-scores', 'Score distribution per model', (canvas, p) => scoreDistributionChart(canvas, withVerdicts, p), {
        height: 320,
        caption: 'For each score the judge gave: the share of each model\'s valid verdicts that got it (the tooltip gives the count).',
      }) : null,
      withVerdicts.length ? slots.box('judge-means', 'Mean score per model and turn', (canvas, p) => judgedMeansChart(canvas, withVerdicts, p), {
        height: Math.max(200, 34 * rows + 90),
        caption: 'Each row: a model\'s mean (marker) with its 95% interval (bar), over all turns (circle) and per turn (turn 1 triangle, turn 2 square).',
      }) : null,
    ]),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Pairwise

function winRatesTable(rows: NonNullable<Judge['win_rates']>, rule: Judge['win_rate_rule']): HTMLElement {
  const arenaHard = rule === 'arena-hard';
  const table = el('table', { className: 'judge-table', attrs: { id: 'judge-win-rates' } }, [
    el('caption', { className: 'sr-only', text: `${arenaHard ? 'Arena-Hard-Auto score' : 'AlpacaEval win rate'} per model against its baseline` }),
    el('thead', {}, [el('tr', {}, [
      th('model'), th('baseline'), th('win rate (%)', arenaHard ? '100 · the model\'s share of its battles: a tie half, a strong verdict three battles' : '100 · mean(preference − 1): a draw counts half'),
      th('95% CI', 'win rate ± 1.96 · standard error'), th('standard error', arenaHard ? 'clustered by question' : '100 · sd(preference − 1, ddof 1) / √n, as the leaderboard'),
      th('wins'), th('losses', 'The baseline preferred (n_wins_base)'), th('draws'), th('n'),
    ])]),
    el('tbody', {}, rows.map((r) => el('tr', { data: { model: r.model } }, [
      el('th', { text: r.category ? `${r.model} (${r.category})` : r.model, attrs: { scope: 'row' } }),
      el('td', { text: r.baseline }),
      num(r.win_rate, 2, { field: 'win_rate' }),
      el('td', { className: 'numeric', text: intervalText(r.interval, 2), data: { lo: r.interval?.[0] ?? '', hi: r.interval?.[1] ?? '' } }),
      num(r.standard_error, 2, { field: 'standard_error' }),
      count(r.n_wins), count(r.n_wins_base), count(r.n_draws), count(r.n_total),
    ]))),
  ]);
  return el('div', {}, [
    heading('h3', 'Win rate against the baseline', ['win_rate', 'Win rate']),
    el('p', {
      className: 'caption muted',
      text: rule === 'arena-hard'
        ? 'Arena-Hard-Auto\'s score: the model\'s share of its battles against the baseline, a tie half, a strong verdict (A>>B) three battles, as its show_result.py counts them; the standard error is clustered by question.'
        : 'AlpacaEval\'s figures: a preference of 2 is a win, 1 a loss, a draw counts half and a fractional preference p counts p − 1; the standard error as the leaderboard reports it.',
    }),
    tableBox(table, 'Win rate against the baseline'),
  ]);
}

/** How a format's win table counts, in a sentence. */
function winTableRule(format: Report['format']): string {
  switch (format) {
    case 'mt-bench': return 'As FastChat\'s show_result.py prints them, under the two-order rule: a win only where both orders name the same winner, otherwise a tie. These are counts over the file\'s pairs; no interval is computed for them.';
    case 'arena-hard': return 'Battles won, lost and tied: each game as judged, a strong verdict (A>>B) counting three battles, as Arena-Hard-Auto\'s show_result.py counts them. Counts, without intervals: the win rate above carries the interval.';
    default: return 'Each battle as voted; a tie counts half in the adjusted win rate. These are counts over the file\'s battles; the ratings below, where there are any, carry the intervals.';
  }
}

function winTable(rows: NonNullable<Judge['win_table']>, format: Report['format']): HTMLElement {
  const table = el('table', { className: 'judge-table', attrs: { id: 'judge-win-table' } }, [
    el('caption', { className: 'sr-only', text: 'Wins, losses and ties per model' }),
    el('thead', {}, [el('tr', {}, [
      th('model'), th('win'), th('loss'), th('tie'), th('win rate', 'win / (win + loss + tie)'), th('loss rate'),
      th('win rate adjusted', '(win + tie / 2) / (win + loss + tie): a tie half a win'),
    ])]),
    el('tbody', {}, rows.map((r) => el('tr', { data: { model: r.model } }, [
      el('th', { text: r.model, attrs: { scope: 'row' } }),
      count(r.win), count(r.loss), count(r.tie),
      num(r.win_rate, 3, { field: 'win_rate' }), num(r.loss_rate, 3, { field: 'loss_rate' }), num(r.win_rate_adjusted, 3, { field: 'win_rate_adjusted' }),
    ]))),
  ]);
  return el('div', {}, [
    heading('h3', 'Wins, losses and ties per model', ['win_rate_adjusted', 'Adjusted win rate']),
    el('p', { className: 'caption muted', text: winTableRule(format) }),
    tableBox(table, 'Wins, losses and ties per model'),
  ]);
}

function pairsTable(pairs: NonNullable<Judge['pairs']>): HTMLElement {
  const table = el('table', { className: 'judge-table', attrs: { id: 'judge-pairs-table' } }, [
    el('caption', { className: 'sr-only', text: 'Verdicts per pair of models' }),
    el('thead', {}, [el('tr', {}, [th('first-named model'), th('second-named model'), th('first wins'), th('ties'), th('second wins'), th('verdicts')])]),
    el('tbody', {}, pairs.map((p) => el('tr', { data: { a: p.a, b: p.b } }, [
      el('td', { text: p.a }), el('td', { text: p.b }),
      count(p.wins_a), count(p.ties), count(p.wins_b), count(p.n),
    ]))),
  ]);
  return tableBox(table, 'Verdicts per pair of models', pairs.length > 12);
}

function pairwiseSection(report: Report, judge: Judge, slots: ChartSlots): HTMLElement | null {
  const pairs = judge.pairs ?? [];
  if (!judge.win_rates && !judge.win_table && !pairs.length && !judge.position_bias && !judge.length_bias) return null;
  const drawn = pairsToDraw(pairs);
  const section = el('section', { className: 'section judge-section', attrs: { id: 'section-pairwise' } }, [
    heading('h2', 'Pairwise preferences'),
  ]);
  if (judge.win_rates?.length) section.appendChild(winRatesTable(judge.win_rates, judge.win_rate_rule));
  if (judge.win_table?.length) section.appendChild(winTable(judge.win_table, report.format));
  if (pairs.length) {
    section.appendChild(el('div', { className: 'chart-grid' }, [slots.box('judge-pairs', 'Wins, ties and losses per pair', (canvas, p) => winTieLossChart(canvas, drawn, p), {
      height: Math.max(160, 30 * drawn.length + 110),
      caption: `Each bar: one pair of models, the first-named model's wins on the left, the ties in the middle, the second-named model's wins on the right, as shares of the pair's verdicts; the counts are written in the bars${drawn.length < pairs.length ? ` (the ${MAX_PAIRS_DRAWN} pairs with the most verdicts are drawn; the table lists all ${formatCount(pairs.length)})` : ''}.`,
    })]));
    section.appendChild(pairsTable(pairs));
  }
  if (judge.position_bias) {
    const b = judge.position_bias;
    section.appendChild(el('div', { attrs: { id: 'judge-position-bias' }, data: { rate: b.rate ?? '', lo: b.interval?.[0] ?? '', hi: b.interval?.[1] ?? '', differ: b.differ, pairs: b.pairs } }, [
      heading('h3', 'Position bias', ['position_bias', 'Position bias']),
      el('p', { text: positionBiasWords(b) }),
    ]));
  } else if (report.format === 'mt-bench' || judge.win_rates) {
    section.appendChild(notApplicable('position-bias', 'Position bias: each comparison in this file was judged in one order only, so whether the verdict depends on the order cannot be seen.'));
  }
  if (judge.length_bias) {
    const b = judge.length_bias;
    section.appendChild(el('div', { attrs: { id: 'judge-length-bias' }, data: { correlation: b.correlation ?? '', lo: b.interval?.[0] ?? '', hi: b.interval?.[1] ?? '', n: b.n } }, [
      heading('h3', 'Length bias', ['length_bias', 'Length bias']),
      el('p', { text: lengthBiasWords(b) }),
    ]));
  }
  return section;
}

// ---------------------------------------------------------------------------------------------
// Arena ratings

function ratingsTable(ratings: NonNullable<Judge['ratings']>): HTMLElement {
  const table = el('table', { className: 'judge-table', attrs: { id: 'judge-ratings-table' } }, [
    el('caption', { className: 'sr-only', text: 'Arena ratings' }),
    el('thead', {}, [el('tr', {}, [
      th('rank', '1 + the models rated strictly higher'), th('model'), th('rating', 'Bradley–Terry, Elo scale, models\' mean 1000'),
      th('95% CI', 'Bootstrap percentiles of the refits'), th('rank 95%', 'Rank interval over the refits'),
      th('tier', '1: the top model and every model not significantly below it'), th('battles'),
    ])]),
    el('tbody', {}, ratings.map((r) => el('tr', { data: { model: r.model } }, [
      count(r.rank),
      el('th', { text: r.model, attrs: { scope: 'row' } }),
      num(r.rating, 1, { field: 'rating' }),
      el('td', { className: 'numeric', text: intervalText(r.interval, 1), data: { lo: r.interval?.[0] ?? '', hi: r.interval?.[1] ?? '' } }),
      el('td', { className: 'numeric', text: r.rank_interval ? `${r.rank_interval[0]}–${r.rank_interval[1]}` : '—', data: { lo: r.rank_interval?.[0] ?? '', hi: r.rank_interval?.[1] ?? '' } }),
      el('td', { className: 'numeric', text: r.tier === null ? '—' : String(r.tier), data: { value: r.tier ?? '' } }),
      count(r.battles),
    ]))),
  ]);
  return tableBox(table, 'Arena ratings', ratings.length > 15);
}

function winProbabilityTable(ratings: NonNullable<Judge['ratings']>): HTMLElement {
  const shown = ratings.slice(0, MAX_MATRIX_MODELS);
  const matrix = winProbabilityMatrix(shown);
  const table = el('table', { className: 'judge-table judge-matrix', attrs: { id: 'judge-win-probabilities' } }, [
    el('caption', { className: 'sr-only', text: 'Predicted probability that the row model beats the column model' }),
    el('thead', {}, [el('tr', {}, [th('row beats column →'), ...shown.map((r) => el('th', { text: r.model, attrs: { scope: 'col' }, className: 'matrix-head' }))])]),
    el('tbody', {}, shown.map((r, i) => el('tr', { data: { model: r.model } }, [
      el('th', { text: r.model, attrs: { scope: 'row' } }),
      ...matrix[i].map((p, j) => {
        const cell = el('td', {
          className: `numeric${i === j ? ' self' : p >= 0.5 ? ' favoured' : ' unfavoured'}`,
          text: i === j ? '—' : p.toFixed(2),
          title: i === j ? r.model : `P(${r.model} beats ${shown[j].model}) = ${p.toFixed(4)}`,
          data: { p },
        });
        cell.style.setProperty('--p', String(Math.abs(p - 0.5) * 2));
        return cell;
      }),
    ]))),
  ]);
  return el('div', {}, [
    heading('h3', 'Predicted win probabilities', ['rating', 'Rating']),
    el('p', {
      className: 'caption muted',
      text: `From the ratings: P(row beats column) = 1 / (1 + 10^((R_column − R_row) / 400)). Above 0.5 (shaded blue, the row is favoured) or below (shaded orange); the number is in every cell.${shown.length < ratings.length ? ` The ${MAX_MATRIX_MODELS} best-rated models of ${formatCount(ratings.length)}.` : ''}`,
    }),
    tableBox(table, 'Predicted win probabilities'),
  ]);
}

function arenaSection(judge: Judge, slots: ChartSlots): HTMLElement | null {
  const ratings = judge.ratings;
  if (!ratings?.length) return null;
  const boot = judge.rating_bootstrap;
  return el('section', { className: 'section judge-section', attrs: { id: 'section-arena' } }, [
    heading('h2', 'Arena ratings', ['rating', 'Rating']),
    el('p', {
      className: 'caption muted',
      text: `Bradley–Terry ratings by maximum likelihood on the Elo scale (400 · log10 odds), centred so that the models' mean rating is 1000; a tie counts half a win each way.${boot ? ` Intervals: ${formatCount(boot.resamples)} bootstrap resamples of the ${formatCount(boot.battles)} battles (seed ${boot.seed}), each refit centred the same way.` : ''}`,
    }),
    ratingsTable(ratings),
    el('div', { className: 'chart-grid' }, [slots.box('judge-ratings', 'Ratings with 95% intervals', (canvas, p) => ratingsForestChart(canvas, ratings, p), {
      height: Math.max(180, 30 * ratings.length + 100),
      maxVisibleHeight: 640,
      caption: 'Each model\'s rating (marker) and its 95% bootstrap interval (bar); the dashed line is the models\' mean, 1000.',
    })]),
    winProbabilityTable(ratings),
  ]);
}

// ---------------------------------------------------------------------------------------------
// The judge against humans

function confusionTable(a: NonNullable<Judge['agreement']>[number], k: number): HTMLElement {
  const total = a.confusion.reduce((s, row) => s + row.reduce((x, y) => x + y, 0), 0);
  const table = el('table', { className: 'judge-table judge-confusion', attrs: { id: `judge-confusion-${k}` } }, [
    el('caption', { className: 'sr-only', text: `${a.judge} (rows) against ${a.human} (columns)` }),
    el('thead', {}, [el('tr', {}, [th('judge ↓ / human →'), ...a.labels.map((l) => th(l)), th('total')])]),
    el('tbody', {}, a.labels.map((label, j) => {
      const rowTotal = a.confusion[j].reduce((x, y) => x + y, 0);
      return el('tr', {}, [
        el('th', { text: label, attrs: { scope: 'row' } }),
        ...a.labels.map((_, h) => {
          const c = a.confusion[j][h];
          const cell = el('td', { className: `numeric${j === h ? ' agree' : ''}`, text: formatCount(c), title: `judge ${label}, human ${a.labels[h]}: ${formatCount(c)}${j === h ? ' (agree)' : ''}`, data: { value: c, judge: j, human: h } });
          cell.style.setProperty('--share', total ? String(c / total) : '0');
          return cell;
        }),
        count(rowTotal),
      ]);
    })),
  ]);
  return tableBox(table, `${a.judge} against ${a.human}`);
}

function humansSection(judge: Judge): HTMLElement | null {
  const agreements = judge.agreement;
  if (!agreements?.length) return null;
  return el('section', { className: 'section judge-section', attrs: { id: 'section-judge-humans' } }, [
    heading('h2', 'The judge against humans', ['kappa', 'Cohen\'s kappa']),
    ...agreements.map((a, k) => el('div', {
      className: 'judge-agreement',
      data: { n: a.n, agreement: a.agreement ?? '', kappa: a.kappa ?? '', lo: a.kappa_interval?.[0] ?? '', hi: a.kappa_interval?.[1] ?? '' },
    }, [
      el('p', { text: agreementWords(a) }),
      el('p', { className: 'caption muted', text: 'Rows: the judge\'s label; columns: the humans\'. The diagonal (outlined) is where they agree.' }),
      confusionTable(a, k),
    ])),
  ]);
}

// ---------------------------------------------------------------------------------------------

/** Whether a report is a judge file's. */
export function isJudgeReport(report: Report): boolean {
  return !!report.judge;
}

/** One line on who judged what, the invalid verdicts, and what does not apply (calibration, cards). */
function overview(report: Report, judge: Judge): HTMLElement {
  const judges = judge.judge_count > judge.judges.length ? `${judge.judges.join(', ')}, … (${formatCount(judge.judge_count)} in all)` : judge.judges.join(', ');
  const kind = judge.kind === 'judged' ? 'grades on the judge\'s scale' : judge.kind === 'pairwise' ? 'preferences between two answers' : 'pairwise verdicts over several models';
  const invalid = invalidWords(judge);
  const noCards = Object.values(report.metrics).every((v) => v === undefined) && judge.models.length > 1;
  return el('div', { className: 'judge-overview', attrs: { id: 'judge-overview' }, data: { kind: judge.kind, models: judge.models.length, invalid: judge.invalid } }, [
    el('p', { text: `A judge file: ${kind}, by ${judges || 'an unnamed judge'}, over ${formatCount(judge.models.length)} model${judge.models.length === 1 ? '' : 's'} and ${formatCount(report.n)} valid verdicts.` }),
    invalid ? el('p', { className: 'judge-invalid', text: invalid, data: { count: judge.invalid } }) : null,
    noCards ? notApplicable('cards', `No figure for the file as a whole: it holds ${formatCount(judge.models.length)} models, and one figure over several models would be wrong. Each model's figures are in the groups above and the tables below.`) : null,
    report.clusters ? notApplicable('cluster', `Cluster by ${report.clusters.column} changes no figure of a judge file: its intervals are its own (a judge score's clustered by question, a win rate's as its leaderboard computes it, Wilson's for the position bias, Fisher's z for the length bias, the ratings' bootstrap over battles).`) : null,
    notApplicable('calibration', 'No calibration views: a judge\'s verdicts are grades and preferences, not probabilities of a gold answer, so there is nothing to calibrate. The judge\'s own reliability is its position bias, its length bias and its agreement with humans, where the file allows them.'),
  ]);
}

/** The judge panels of a judge report, or null for any other report. */
export function judgePanels(report: Report, slots: ChartSlots): HTMLElement | null {
  const judge = report.judge;
  if (!judge) return null;
  const sections = [judgedSection(judge, slots), pairwiseSection(report, judge, slots), arenaSection(judge, slots), humansSection(judge)].filter((s): s is HTMLElement => !!s);
  if (judge.pairs?.length && !judge.ratings?.length) {
    sections.push(notApplicable('win-probabilities', judge.models.length <= 2
      ? 'No matrix of predicted win probabilities: it comes from arena ratings, which are fitted over the verdicts of more than two models, and this file compares two. The win rates above are the comparison.'
      : 'No matrix of predicted win probabilities: it comes from arena ratings, and none were fitted for this file (a model judged against baselines only has a score against each, not a leaderboard). The win rates above are the comparison.'));
  }
  return el('div', { className: 'judge-panels', attrs: { id: 'judge-panels' } }, [overview(report, judge), ...sections]);
}
