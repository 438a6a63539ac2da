// Paths in commands we suggest (a refusal's "score them with: eval-lens score A B", git lfs pull
// --include=NAME) are pasted into a shell: a name with `|`, a space or `$` would be a pipe, two
// words or an expansion there. Names of only safe characters stay bare, as people type them.

/** Characters no POSIX shell treats specially, anywhere in a word. */
const SAFE_WORD = /^[A-Za-z0-9_\-./=:,+@%]+$/;

/** `word` as one POSIX shell word: bare when safe, else in single quotes, each ' written as '\''. */
export function shellQuote(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Words joined by spaces, each quoted as a POSIX shell needs (shellQuote). */
export function shellWords(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
