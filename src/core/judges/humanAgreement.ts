// Which samples carry both a judge's verdict and a human's (docs/metrics.md#kappa):
// - pairwise votes by several judges on the same (question, pair of models, turn), some of them
//   humans (MT-Bench's human judgments: "expert_0", "author_2"; Chatbot Arena's "arena_user_…")
//   and some a model (["gpt-4", "pair-v2"]): each human vote against the model judge's vote, as
//   FastChat's compute_agreement.py pairs them (its first vote; a tie of any kind is "tie");
// - a grade or a preference with a human's beside it in the same record.
import { judgeAgreement } from './kappa';
import type { JudgeAgreement, JudgeRows, PairRows } from './types';

/** Judge names that stand for people (MT-Bench human judgments, Chatbot Arena votes). */
export function isHumanJudge(name: string): boolean {
  return /^(expert|author|human|arena_user|annotator|crowd|rater)/i.test(name);
}

/** Every judge-against-human table the rows allow (none when no sample has both). */
export function agreementsOf(rows: JudgeRows): JudgeAgreement[] {
  switch (rows.kind) {
    case 'pair': return pairAgreements(rows);
    case 'judged': {
      if (!rows.human) return [];
      const j: string[] = [];
      const h: string[] = [];
      for (let i = 0; i < rows.score.length; i++) {
        if (rows.human[i] !== rows.human[i]) continue;
        j.push(String(rows.score[i]));
        h.push(String(rows.human[i]));
      }
      if (!j.length) return [];
      const order = [...new Set([...rows.score, ...rows.human].filter((v) => v === v))].sort((a, b) => a - b).map(String);
      return [judgeAgreement(j, h, { judge: rows.judges.join(', ') || 'judge', human: 'human' }, order)];
    }
    case 'preference': {
      if (!rows.human) return [];
      const label = (p: number) => (p > 1.5 ? 'generator_2' : p < 1.5 ? 'generator_1' : 'draw');
      const j: string[] = [];
      const h: string[] = [];
      for (let i = 0; i < rows.preference.length; i++) {
        if (rows.human[i] !== rows.human[i]) continue;
        j.push(label(rows.preference[i]));
        h.push(label(rows.human[i]));
      }
      return j.length ? [judgeAgreement(j, h, { judge: rows.judges.join(', ') || 'judge', human: 'human' }, ['generator_1', 'generator_2', 'draw'])] : [];
    }
  }
}

function pairAgreements(rows: PairRows): JudgeAgreement[] {
  const human = rows.judges.map(isHumanJudge);
  if (!human.some(Boolean) || human.every(Boolean)) return [];
  // key -> judge -> votes, each vote seen from the pair in name order ("model_a" = the first name).
  const votes = new Map<string, Map<number, string[]>>();
  for (let i = 0; i < rows.outcome.length; i++) {
    const a = rows.models[rows.a[i]];
    const b = rows.models[rows.b[i]];
    const swap = b < a;
    const key = `${rows.question[i]}\u0000${swap ? b : a}\u0000${swap ? a : b}\u0000${rows.turn[i]}`;
    const o = swap ? 1 - rows.outcome[i] : rows.outcome[i];
    const label = o === 1 ? 'model_a' : o === 0 ? 'model_b' : 'tie';
    let byJudge = votes.get(key);
    if (!byJudge) votes.set(key, (byJudge = new Map()));
    const list = byJudge.get(rows.judge[i]);
    if (list) list.push(label); else byJudge.set(rows.judge[i], [label]);
  }
  const out: JudgeAgreement[] = [];
  rows.judges.forEach((name, j) => {
    if (human[j]) return;
    const jl: string[] = [];
    const hl: string[] = [];
    for (const byJudge of votes.values()) {
      const mine = byJudge.get(j);
      if (!mine) continue;
      for (const [other, list] of byJudge) {
        if (!human[other]) continue;
        for (const v of list) { jl.push(mine[0]); hl.push(v); }
      }
    }
    if (jl.length) out.push(judgeAgreement(jl, hl, { judge: name, human: `human (${rows.judges.filter((_, k) => human[k]).length} raters)` }, ['model_a', 'model_b', 'tie']));
  });
  return out;
}
