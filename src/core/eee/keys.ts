// Every Eval Ever (EEE, the EvalEval coalition's shared schema, evaleval/every_eval_ever,
// every_eval_ever/schemas/): the version Eval Lens writes, and the names of the fields Eval Lens adds
// where the schema has no place of its own. The schema's string maps (an instance's `metadata`, an
// aggregate's `additional_details` and `score_details.details`) take string values only, so numbers
// are written with String(x), which reads back to the same double, and lists as JSON text.
// The writer (src/core/eee/) and the reader (src/core/formats/eee*.ts) share these names, so a file
// Eval Lens wrote reads back with the figures the schema cannot carry (a risk score's AUC, Brier, ECE).

/** The schema version written (every_eval_ever/schemas/*.schema.json, "version"). */
export const EEE_SCHEMA_VERSION = '0.3.0';

/** Prefix of every key Eval Lens adds to a string map. */
export const EVAL_LENS_PREFIX = 'eval_lens.';

/** Per-sample keys in an instance record's `metadata`. */
export const SAMPLE_META = {
  /** The report's kind: binary | multiclass | confidence | probability | scores. */
  kind: 'eval_lens.kind',
  /** Binary kinds: the risk score P(y = 1), the 0/1 label, and the threshold is_correct was decided at. */
  riskScore: 'eval_lens.risk_score',
  label: 'eval_lens.label',
  /** The file's own 0/1 decision (a prediction column), when it, not the threshold, decides. */
  pred: 'eval_lens.pred',
  threshold: 'eval_lens.threshold',
  /** The model's confidence in its answer (confidence kind, a multiclass set with confidences). */
  confidence: 'eval_lens.confidence',
  /** Multiclass: the gold and predicted class's index into input.choices, and each choice's probability (a JSON array). */
  goldIndex: 'eval_lens.gold_index',
  predIndex: 'eval_lens.pred_index',
  choiceProbs: 'eval_lens.choice_probs',
  /**
   * Multiclass: the classes the task declares, a JSON array of their names as the records name them
   * (MulticlassSet.declaredClasses: HELM's output_mapping letters); other answers are no class.
   */
  declaredClasses: 'eval_lens.declared_classes',
  /** Probability kind (ALMANACS): the predicted and the true probability. */
  predProb: 'eval_lens.pred_prob',
  goldProb: 'eval_lens.gold_prob',
  /**
   * Multiclass answers that are free text, not labels (MulticlassSet.freeText): why, and whether
   * accuracy is still a figure ('kept') or not ('dropped'), so a file read back drops what the source did.
   */
  freeText: 'eval_lens.free_text',
  freeTextAccuracy: 'eval_lens.free_text_accuracy',
  /** The line of the source file the sample came from. */
  sourceLine: 'eval_lens.source_line',
} as const;

/** A per-sample metric the source logged (lm-eval's exact_match, a Ragas score), by its own name. */
export const METRIC_PREFIX = 'eval_lens.metric.';
/** A text field of the source that has no place in input/output (a target, a scorer's explanation). */
export const TEXT_PREFIX = 'eval_lens.text.';
