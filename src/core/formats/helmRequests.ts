// HELM's request states (scenario_state.json: {adapter_spec, request_states[]}), each an instance,
// the request sent for it and the model's completions. Fields as crfm-helm writes them:
// src/helm/benchmark/adaptation/request_state.py (instance, reference_index, request_mode,
// train_trial_index, output_mapping, request, result), scenarios/scenario.py (Instance: input.text,
// references[].output.text and tags, split, id, perturbation), common/request.py (completions with
// text and logprob).
//
// Exact match is recomputed as crfm-helm's compute_reference_metrics does
// (metrics/evaluate_reference_metrics.py): the completions sorted by logprob (highest first), the
// first one stripped, passed through adapter_spec.output_mapping_pattern when there is one, then
// through output_mapping (a letter -> the choice's text; a letter not in it -> no answer), and
// compared (both stripped) with each reference tagged "correct".
import type { RowProblem } from '../types';
import { isRecord, type JsonMember } from './jsonMembers';

export interface HelmRequest {
  instanceId: string;
  trial: number;
  split: string;
  /** The perturbation's name, for a perturbed instance. */
  perturbation?: string;
  line: number;
  input: string;
  prompt: string;
  references: string[];
  correct: string[];
  /** The top completion as the model wrote it. */
  completion: string;
  /** The stripped completion after adapter_spec.output_mapping_pattern: the letter the model chose. */
  extracted: string;
  /** The answer HELM compares: the stripped completion, through the pattern and output_mapping (null: not a choice). */
  answer: string | null;
  outputMapping?: Record<string, string>;
  /** crfm-helm's exact_match of this request. */
  exactMatch: boolean;
  /** A request for one choice of a multiple_choice_separate_* method (request_mode, reference_index). */
  perChoice: boolean;
}

function applyPattern(pattern: string | undefined, pred: string): string {
  if (!pattern) return pred;
  let re: RegExp;
  try { re = new RegExp(pattern); } catch { return pred; }
  const m = re.exec(pred);
  if (!m) return '';
  return m.length > 1 ? m[1] ?? '' : m[0];
}

/** The request states of a scenario_state document's members, each bad one a problem on its line. */
export function readHelmRequests(members: readonly JsonMember[], adapterSpec: Record<string, unknown>, problems: RowProblem[]): HelmRequest[] {
  const pattern = typeof adapterSpec.output_mapping_pattern === 'string' && adapterSpec.output_mapping_pattern ? adapterSpec.output_mapping_pattern : undefined;
  const out: HelmRequest[] = [];
  for (const m of members) {
    const rs = m.value;
    const bad = (message: string) => problems.push({ line: m.line, column: m.column, severity: 'warning', code: 'missing-field', message: `Request state on line ${m.line}: ${message}; it is left out.` });
    if (!isRecord(rs) || !isRecord(rs.instance)) { bad('it has no instance'); continue; }
    const inst = rs.instance;
    if (typeof inst.id !== 'string' || !inst.id) { bad('its instance has no id'); continue; }
    const refs = Array.isArray(inst.references) ? inst.references.filter(isRecord) : [];
    const refText = (r: Record<string, unknown>) => (isRecord(r.output) && typeof r.output.text === 'string' ? r.output.text : '');
    const references = refs.map(refText);
    const correct = refs.filter((r) => Array.isArray(r.tags) && r.tags.includes('correct')).map(refText);
    const result = isRecord(rs.result) ? rs.result : undefined;
    const completions = result && Array.isArray(result.completions) ? result.completions.filter(isRecord) : [];
    if (!completions.length) { bad(`instance ${inst.id} has no completion (result.completions)`); continue; }
    // Highest logprob first; sort is stable, as Python's sorted is.
    const sorted = completions.map((c) => ({ text: typeof c.text === 'string' ? c.text : '', logprob: typeof c.logprob === 'number' ? c.logprob : 0 }))
      .sort((a, b) => b.logprob - a.logprob);
    const completion = sorted[0].text;
    const mapping = isRecord(rs.output_mapping) ? rs.output_mapping as Record<string, string> : undefined;
    const extracted = mapping ? applyPattern(pattern, completion.trim()) : completion.trim();
    const answer = !mapping ? extracted : Object.prototype.hasOwnProperty.call(mapping, extracted) && typeof mapping[extracted] === 'string' ? mapping[extracted] : null;
    const exactMatch = !!answer && correct.some((g) => g.trim() === answer!.trim());
    const request = isRecord(rs.request) ? rs.request : {};
    const p = inst.perturbation;
    out.push({
      instanceId: inst.id,
      trial: typeof rs.train_trial_index === 'number' ? rs.train_trial_index : 0,
      split: typeof inst.split === 'string' ? inst.split : '',
      ...(isRecord(p) ? { perturbation: typeof p.name === 'string' ? p.name : 'perturbed' } : {}),
      line: m.line,
      input: isRecord(inst.input) && typeof inst.input.text === 'string' ? inst.input.text : '',
      prompt: typeof request.prompt === 'string' ? request.prompt : '',
      references,
      correct,
      completion,
      extracted,
      answer,
      ...(mapping ? { outputMapping: mapping } : {}),
      exactMatch,
      perChoice: typeof rs.reference_index === 'number' || (typeof rs.request_mode === 'string' && !!rs.request_mode),
    });
  }
  return out;
}

/** The key of output_mapping whose choice is `text`, or undefined. */
export function letterOf(mapping: Record<string, string>, text: string): string | undefined {
  for (const [k, v] of Object.entries(mapping)) if (typeof v === 'string' && v.trim() === text.trim()) return k;
  return undefined;
}

/** The choices of a multiple-choice request as "A. text" lines. */
export function choicesText(mapping: Record<string, string> | undefined): string {
  return mapping ? Object.entries(mapping).map(([k, v]) => `${k}. ${v}`).join('\n') : '';
}
