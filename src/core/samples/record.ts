// One per-sample record that every harness adapter produces (DESIGN.md, "One sample record"). It is
// modelled on the Every Eval Ever instance schema 0.3 (sample_id, model_id, evaluation_name, input,
// output or messages, answer_attribution, evaluation, token_usage, metadata), plus what Eval Lens
// needs beyond it: per-choice probabilities, every per-sample metric by name, a judge's verdict.
// Adapters (src/core/formats/<harness>.ts) turn a file into SampleRecord[]; recordsToParse
// (src/core/samples/toParse.ts) turns those into the columnar PredictionSet the metrics read, so a
// new harness is a new adapter, not a new path through the code.

/** One message of a conversation (EEE `messages[]`). */
export interface SampleMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | string;
  content: string;
  reasoning_trace?: string;
  tool_calls?: { id?: string; name: string; arguments: string }[];
  tool_call_id?: string;
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
  /** EEE `evaluation`: the harness's own score of the sample and its verdict. */
  evaluation?: { score?: number; is_correct?: boolean };
  /** Every per-sample metric the harness logged, by its own name (NaN: not logged for this sample). */
  metrics?: Record<string, number>;
  judgement?: SampleJudgement;
  token_usage?: { input_tokens?: number; output_tokens?: number; total_tokens?: number };
  /** String values only, as in EEE. */
  metadata?: Record<string, string>;
}
