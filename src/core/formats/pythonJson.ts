// JSON as Python writes it. Python's json.dump (and pydantic with ser_json_inf_nan="constants")
// writes the bare words NaN, Infinity and -Infinity, which JSON.parse refuses and json.loads reads.
// Every reader of the core parses JSON through parsePythonJson, so a log with one NaN metric is not
// rejected, and the non-finite values arrive as the numbers they stand for (NaN, +-Infinity): each
// reader decides what they mean (Inspect: NaN is "unscored"; a results file: a metric shown as such).

/** The bare words outside strings; a string's "NaN" is matched as part of the string and kept. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g;

/** Strings the bare words become before JSON.parse, and back to numbers in the reviver. */
const SENTINEL = '\u0000py-json:';
const VALUES: Record<string, number> = {
  [`${SENTINEL}NaN`]: NaN,
  [`${SENTINEL}Infinity`]: Infinity,
  [`${SENTINEL}-Infinity`]: -Infinity,
};

/** Whether text may hold Python's bare non-finite words (a cheap test before the rewrite). */
export function mayHoldNonFinite(text: string): boolean {
  return text.includes('NaN') || text.includes('Infinity');
}

/**
 * JSON.parse, and Python's NaN, Infinity and -Infinity as numbers. Valid JSON takes JSON.parse's
 * own path (no cost); only a text that fails and holds one of the words is rewritten. Throws
 * JSON.parse's SyntaxError when the text is not JSON either way.
 */
export function parsePythonJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    if (!mayHoldNonFinite(text)) throw e;
  }
  let replaced = false;
  const fixed = text.replace(TOKENS, (m) => {
    if (m.charCodeAt(0) === 34) return m;
    replaced = true;
    return JSON.stringify(SENTINEL + m);
  });
  if (!replaced) return JSON.parse(text);
  return JSON.parse(fixed, (_key, value) => (typeof value === 'string' && value.startsWith(SENTINEL) && value in VALUES ? VALUES[value] : value));
}

/** How a number that JSON cannot hold is written, as Python writes it (NaN, Infinity, -Infinity). */
export function nonFiniteText(x: number): string | undefined {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return undefined;
}
