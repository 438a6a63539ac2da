// One per-sample record that every harness adapter produces (DESIGN.md, "One sample record"). It is
// modelled on the Every Eval Ever instance schema 0.3 (sample_id, model_id, evaluation_name, input,
// output or messages, answer_attribution, evaluation, token_usage, metadata), plus what Eval Lens
// needs beyond it: per-choice probabilities, every per-sample metric by name, a judge's verdict.
// Adapters (src/core/formats/<harness>.ts) turn a file into SampleRecord[]; recordsToParse
// (src/core/samples/toParse.ts) turns those into the columnar PredictionSet the metrics read, so a
// new harness is a new adapter, not a new path through the code.

import type { FormatName } from '../types';

/** One message of a conversation (EEE `messages[]`). */
export interface SampleMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | string;
  content: string;
  reasoning_trace?: string;
  tool_calls?: { id?: string; name: string; arguments: string }[];
  tool_call_id?: string;
  /** A tool message: the tool's name (Inspect's `function`) and the error it returned, if any. */
  tool_name?: string;
  tool_error?: string;
  /** The model that wrote an assistant message, when the file says. */
  model?: string;
}

/**
 * One score a scorer gave the sample (Inspect writes one per scorer): its value as the file writes
 * it, the answer it read, its explanation (Markdown or plain text), and a model grader's exchange.
 */
export interface SampleScore {
  name: string;
  /** The value as written: "C", 0.5, true; a dict of values as JSON text. */
  value: string;
  /** The value as a number (Inspect's value_to_float), when it reads as one. */
  numeric?: number;
  answer?: string;
  explanation?: string;
  /** A model-graded scorer's own conversation (Inspect's score metadata `grading`): the grader's prompt and reply. */
  grader?: { model?: string; messages: SampleMessage[] };
  /** The rest of the score's metadata, values as text. */
  metadata?: Record<string, string>;
}

/** Where the extracted answer stands in the final output (EEE answer_attribution, located). */
export interface AnswerSpan {
  /** In messages[message].content, or in output.raw[output]. */
  message?: number;
  output?: number;
  /** Character offsets into that text. */
  start: number;
  end: number;
}

/** A judge's reading of one sample (a grade on its own scale, a preference between two outputs). */
export interface SampleJudgement {
  judge?: string;
  /** The judge's number on its own scale (MT-Bench 1–10); NaN when its verdict could not be parsed. */
  score?: number;
  /** The verdict as the file writes it ("model_1", "tie", 2, "A"). */
  verdict?: string;
  explanation?: string;
}

export interface SampleRecord {
  /** The sample's identifier as the harness writes it (several records may share one: epochs, turns, models). */
  sample_id: string;
  /** 1-based line of the source file the record starts on (1 for a single JSON document without line information). */
  line: number;
  model_id?: string;
  evaluation_name?: string;
  input?: {
    raw?: string;
    /** The prompt as the model saw it (chat template, few-shot examples), when it differs from raw. */
    formatted?: string;
    /** The gold answer(s) as text. */
    reference?: string[];
    /** The choices of a multiple-choice question, in order. */
    choices?: string[];
  };
  output?: { raw?: string[]; reasoning_trace?: string[] };
  messages?: SampleMessage[];
  /** The extracted answer, as the harness extracted it (EEE answer_attribution's extracted value). */
  answer?: string;
  /** Multiple choice: the gold choice's index, the predicted choice's index, each choice's probability. */
  goldIndex?: number;
  predIndex?: number;
  choiceProbs?: number[];
  /** A label task: the gold and predicted labels as text (compared as labels, not graded). */
  gold?: string;
  pred?: string;
  /** The model's stated confidence in its answer, in [0, 1]. */
  confidence?: number;
  /** The binary kinds (folktexts, a score/label table): the risk score P(y = 1), the 0/1 label, and the file's own 0/1 decision when it has one (BinarySet.pred). */
  risk?: { score: number; label: 0 | 1; pred?: 0 | 1 };
  /** The probability kind (ALMANACS): the predicted and the true probability. */
  probability?: { pred: number; gold: number };
  /** EEE `evaluation`: the harness's own score of the sample and its verdict. */
  evaluation?: { score?: number; is_correct?: boolean };
  /** Every per-sample metric the harness logged, by its own name (NaN: not logged for this sample). */
  metrics?: Record<string, number>;
  judgement?: SampleJudgement;
  token_usage?: {
    input_tokens?: number; output_tokens?: number; total_tokens?: number;
    /** EEE's and Inspect's finer counts, where the file has them. */
    input_tokens_cache_read?: number; input_tokens_cache_write?: number; reasoning_tokens?: number;
  };
  /** String values only, as in EEE. */
  metadata?: Record<string, string>;
  /** Every scorer's score, with its explanation (the sample view shows each). */
  scores?: SampleScore[];
  /** Where `answer` stands in the final output. */
  answer_at?: AnswerSpan;
  /** Time the sample took, in seconds (Inspect's total and working time; EEE's latency). */
  timing?: { total_seconds?: number; working_seconds?: number; first_token_seconds?: number; latency_seconds?: number };
  /** Token usage per model (Inspect's model_usage: the solver's and the grader's apart). */
  usage_by_model?: Record<string, NonNullable<SampleRecord['token_usage']>>;
  /** Why the sample stopped early (an error or a limit), when it did. */
  error?: string;
  /** EEE: single_turn, multi_turn or agentic. */
  interaction_type?: string;
}

/** One row of a report, as the page knows it. */
export interface SampleRow {
  /** The row's line in the file (an Inspect .eval: its position in id, epoch order). */
  line: number;
  /** The row's ID as the report shows it (Inspect: "7 (epoch 2)" when the log has several epochs). */
  id?: string;
  /** What the report holds of the row: the record of a format that keeps no more than that. */
  texts?: { fields: string[]; values: string[] };
  gold?: string;
  pred?: string;
  confidence?: number;
  correct?: boolean;
}

export interface SampleQuery {
  path: string;
  format: FormatName;
  /** lm-eval: the task of a file holding several (a simple_evaluate dump). */
  task?: string;
  row: SampleRow;
  /** The file's unsaved text, when it is open with edits. */
  text?: string;
}
