// Per-sample columns of an agent run (issue 29): the number of turns (the model's replies), of tool
// calls and of tokens, and the tools called. They travel as instance text fields, so the instance
// table can sort by them, the search can filter on them (`tool_calls > 3`, a tool's name) and
// "Group by" can split the accuracy by them, as any other column of the file.
import type { SampleMessage, SampleRecord } from './record';

export interface AgentCounts {
  /** Assistant messages: the model's turns. */
  turns: number;
  toolCalls: number;
  /** Every model's tokens for the sample (NaN: the file does not say). */
  tokens: number;
  /** Distinct tool names, in the order first called. */
  tools: string[];
}

/** The text fields, in this order, that carry AgentCounts (agentTexts); the numeric ones the table sorts. */
export { AGENT_FIELDS, AGENT_NUMBER_FIELDS } from '../../common/sampleView';

export function countMessages(messages: readonly Pick<SampleMessage, 'role' | 'tool_calls'>[]): Omit<AgentCounts, 'tokens'> {
  let turns = 0;
  let toolCalls = 0;
  const tools: string[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') turns++;
    for (const call of m.tool_calls ?? []) {
      toolCalls++;
      if (call.name && !tools.includes(call.name)) tools.push(call.name);
    }
  }
  return { turns, toolCalls, tools };
}

export function countsOfRecord(r: SampleRecord): AgentCounts {
  const counted = countMessages(r.messages ?? []);
  const u = r.token_usage;
  const tokens = u ? (u.total_tokens ?? ((u.input_tokens ?? NaN) + (u.output_tokens ?? NaN))) : NaN;
  // A single-turn record (output.raw) is one turn of the model.
  return { ...counted, turns: r.messages?.length ? counted.turns : r.output?.raw?.length ? 1 : 0, tokens };
}

/** Whether the columns say anything: some sample called a tool or took more than one turn. */
export function isAgentRun(counts: readonly AgentCounts[]): boolean {
  return counts.some((c) => c.toolCalls > 0 || c.turns > 1);
}

/** The values of AGENT_FIELDS for one sample. */
export function agentTexts(c: AgentCounts): string[] {
  return [String(c.turns), String(c.toolCalls), Number.isFinite(c.tokens) ? String(c.tokens) : '', c.tools.join(', ')];
}
