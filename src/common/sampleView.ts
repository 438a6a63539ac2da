// Which reports open the sample view (issue 29), shared by the report page and the host: the
// formats whose files keep more of a sample than the report's row (the conversation, the choices'
// log-probabilities, every score), read from the file when a sample is shown, and any report whose
// rows carry texts (the view then shows those texts, labels and scores in one place).
import type { FormatName } from '../core/types';

/** Read from the file by the sample reader (src/core/samples/readSample.ts). */
export const SAMPLE_FILE_FORMATS: readonly FormatName[] = ['inspect', 'lm-eval', 'eee', 'lighteval'];

export function hasSampleView(format: FormatName, hasTexts: boolean): boolean {
  return SAMPLE_FILE_FORMATS.includes(format) || hasTexts;
}

/**
 * An agent run's per-sample columns (src/core/samples/agentColumns.ts fills them): the model's
 * turns, its tool calls, its tokens, and the tools it called. They travel as instance text fields.
 */
export const AGENT_FIELDS = ['turns', 'tool_calls', 'tokens', 'tools'] as const;
/** Those that hold numbers: the instance table shows them as columns it sorts as numbers. */
export const AGENT_NUMBER_FIELDS: readonly string[] = ['turns', 'tool_calls', 'tokens'];
