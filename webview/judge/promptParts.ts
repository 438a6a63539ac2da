// What a FastChat judge was shown, taken apart for the stepper: the question, the answer (or the two
// answers of a pair), the reference answer of a math or reasoning question, and the conversation
// of a multi-turn prompt. The markers are those of FastChat's judge prompts (llm_judge/data/
// judge_prompts.jsonl: single-v1, single-math-v1, the -multi-turn ones, pair-v2, pair-math-v1),
// checked against the real judgments in test/fixtures/real/mt-bench. A prompt without them (another
// template, or text clipped before a marker) gives what it can; the page shows the whole prompt too.
// Pure: no DOM.

export interface ConversationTurn {
  user: string;
  /** The assistant's (or the reference's) answer to it. */
  answer: string;
}

export interface PromptParts {
  question?: string;
  /** One answer (a single grade) or two (a pair: A then B). Multi-turn prompts: the last turn's. */
  answers: string[];
  reference?: string;
  /** Multi-turn prompts: each conversation's turns (one for a single grade, A and B for a pair). */
  conversations?: ConversationTurn[][];
  referenceTurns?: ConversationTurn[];
}

/** The text between `start` and `end` (to the end of the text when `end` is missing: a clipped prompt). */
function between(text: string, start: string, end: string | null): string | undefined {
  const at = text.indexOf(start);
  if (at < 0) return undefined;
  const from = at + start.length;
  const to = end === null ? -1 : text.indexOf(end, from);
  return (to < 0 ? text.slice(from) : text.slice(from, to)).replace(/^\n+|\n+$/g, '');
}

/** A "### User:" / "### Assistant A:" conversation (the multi-turn templates) as turns. */
export function conversationTurns(block: string): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  const parts = block.split(/^### (User|Assistant [AB]|Reference answer):[ \t]*$/m);
  // parts: [before, role, text, role, text, ...]
  for (let k = 1; k + 1 < parts.length; k += 2) {
    const role = parts[k];
    const text = parts[k + 1].replace(/^\n+|\n+$/g, '');
    if (role === 'User') turns.push({ user: text, answer: '' });
    else if (turns.length) turns[turns.length - 1].answer = text;
    else turns.push({ user: '', answer: text });
  }
  return turns;
}

const MULTI = (who: string) => [`<|The Start of Assistant ${who}'s Conversation with User|>`, `<|The End of Assistant ${who}'s Conversation with User|>`] as const;

/** The parts of a FastChat single or pair judge prompt (`user_prompt`, `g1_user_prompt`). */
export function promptParts(prompt: string): PromptParts {
  // Multi-turn templates: whole conversations between <|...|> markers.
  const convA = between(prompt, ...MULTI('A'));
  if (convA !== undefined) {
    const convB = between(prompt, ...MULTI('B'));
    const conversations = [conversationTurns(convA), ...(convB !== undefined ? [conversationTurns(convB)] : [])];
    const refBlock = between(prompt, '<|The Start of Reference Answer|>', '<|The End of Reference Answer|>');
    const last = conversations[0][conversations[0].length - 1];
    return {
      ...(last?.user ? { question: last.user } : {}),
      answers: conversations.map((c) => c[c.length - 1]?.answer ?? ''),
      conversations,
      ...(refBlock !== undefined ? { referenceTurns: conversationTurns(refBlock), reference: conversationTurns(refBlock).pop()?.answer } : {}),
    };
  }
  // Arena-Hard-Auto's judge prompt: <|User Prompt|> and <|The Start of Assistant A's Answer|> markers.
  if (prompt.includes('<|User Prompt|>')) {
    const q = between(prompt, '<|User Prompt|>', '<|The Start of Assistant A\'s Answer|>');
    const ha = between(prompt, '<|The Start of Assistant A\'s Answer|>', '<|The End of Assistant A\'s Answer|>');
    const hb = between(prompt, '<|The Start of Assistant B\'s Answer|>', '<|The End of Assistant B\'s Answer|>');
    return { ...(q !== undefined ? { question: q } : {}), answers: ha === undefined ? [] : [ha, ...(hb !== undefined ? [hb] : [])] };
  }
  const question = between(prompt, '[User Question]\n', '\n\n[The Start of') ?? between(prompt, '[Question]\n', '\n\n[The Start of');
  const reference = between(prompt, '[The Start of Reference Answer]', '[The End of Reference Answer]');
  const single = between(prompt, '[The Start of Assistant\'s Answer]', '[The End of Assistant\'s Answer]');
  const a = between(prompt, '[The Start of Assistant A\'s Answer]', '[The End of Assistant A\'s Answer]');
  const b = between(prompt, '[The Start of Assistant B\'s Answer]', '[The End of Assistant B\'s Answer]');
  const answers = single !== undefined ? [single] : a !== undefined ? [a, ...(b !== undefined ? [b] : [])] : [];
  return { ...(question !== undefined ? { question } : {}), answers, ...(reference !== undefined ? { reference } : {}) };
}
