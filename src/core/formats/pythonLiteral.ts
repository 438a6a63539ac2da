// Python literals as `str()` / `repr()` writes them: lighteval up to 0.7 saved every column of its
// details as `str(value)` ("[(-1.25, False), (-3.5, True)]", "{'acc': 1, 'acc_norm': 0}",
// "['Paris', 'Lyon']"), so a reader of those files needs Python's literal syntax, not JSON's.
// Tuples become arrays, None null, True/False booleans, nan/inf numbers; a numpy scalar's repr
// (np.float64(0.5)) is its value. Anything else is a SyntaxError naming the offset.

/** Parse one Python literal (the whole text, blanks around it allowed). */
export function parsePythonLiteral(text: string): unknown {
  const p = new LiteralParser(text);
  const value = p.value();
  p.blanks();
  if (p.at < text.length) p.fail('unexpected text after the value');
  return value;
}

/** The literal, or undefined when the text is not one. */
export function tryPythonLiteral(text: string): unknown {
  try {
    return parsePythonLiteral(text);
  } catch {
    return undefined;
  }
}

const WORDS: Record<string, unknown> = { None: null, True: true, False: false, nan: NaN, inf: Infinity, NaN: NaN, Infinity: Infinity };
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0', a: '\x07', b: '\b', f: '\f', v: '\v', '\n': '' };

class LiteralParser {
  at = 0;
  constructor(private readonly s: string) {}

  fail(why: string): never {
    throw new SyntaxError(`Not a Python literal at offset ${this.at}: ${why}`);
  }

  blanks(): void {
    while (this.at < this.s.length && /\s/.test(this.s[this.at])) this.at++;
  }

  value(): unknown {
    this.blanks();
    const c = this.s[this.at];
    if (c === undefined) this.fail('the text ends where a value was expected');
    if (c === '[') return this.sequence(']');
    if (c === '(') return this.sequence(')');
    if (c === '{') return this.dict();
    if (c === "'" || c === '"') return this.string();
    if ((c === 'b' || c === 'u' || c === 'r' || c === 'B' || c === 'U' || c === 'R') && (this.s[this.at + 1] === "'" || this.s[this.at + 1] === '"')) {
      const raw = c === 'r' || c === 'R';
      this.at++;
      return this.string(raw);
    }
    if (c === '-' || c === '+' || c === '.' || (c >= '0' && c <= '9')) return this.number();
    if (/[A-Za-z_]/.test(c)) return this.word();
    return this.fail(`unexpected ${JSON.stringify(c)}`);
  }

  /** A list or a tuple (both arrays); a trailing comma is allowed. */
  private sequence(close: string): unknown[] {
    this.at++;
    const out: unknown[] = [];
    for (;;) {
      this.blanks();
      if (this.s[this.at] === close) { this.at++; return out; }
      out.push(this.value());
      this.blanks();
      const c = this.s[this.at];
      if (c === ',') { this.at++; continue; }
      if (c === close) { this.at++; return out; }
      this.fail(`expected "," or "${close}"`);
    }
  }

  private dict(): Record<string, unknown> {
    this.at++;
    const out: Record<string, unknown> = {};
    for (;;) {
      this.blanks();
      if (this.s[this.at] === '}') { this.at++; return out; }
      const key = this.value();
      this.blanks();
      if (this.s[this.at] !== ':') this.fail('expected ":" after a key');
      this.at++;
      out[String(key)] = this.value();
      this.blanks();
      const c = this.s[this.at];
      if (c === ',') { this.at++; continue; }
      if (c === '}') { this.at++; return out; }
      this.fail('expected "," or "}"');
    }
  }

  private string(raw = false): string {
    const quote = this.s[this.at];
    const triple = this.s.startsWith(quote.repeat(3), this.at);
    this.at += triple ? 3 : 1;
    let out = '';
    for (;;) {
      if (this.at >= this.s.length) this.fail('a string is not closed');
      const c = this.s[this.at];
      if (c === quote && (!triple || this.s.startsWith(quote.repeat(3), this.at))) {
        this.at += triple ? 3 : 1;
        return out;
      }
      if (c === '\\' && !raw) {
        const e = this.s[this.at + 1];
        if (e === 'x' || e === 'u' || e === 'U') {
          const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
          const hex = this.s.slice(this.at + 2, this.at + 2 + len);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) this.fail(`a bad \\${e} escape`);
          out += String.fromCodePoint(parseInt(hex, 16));
          this.at += 2 + len;
          continue;
        }
        if (e !== undefined && e in ESCAPES) { out += ESCAPES[e]; this.at += 2; continue; }
        out += c; // Python keeps an unknown escape as written
        this.at++;
        continue;
      }
      out += c;
      this.at++;
    }
  }

  private number(): number {
    const m = /^[+-]?(?:inf|nan|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?)/.exec(this.s.slice(this.at, this.at + 64));
    if (!m) this.fail('a bad number');
    this.at += m[0].length;
    const t = m[0].replace(/_/g, '');
    if (/inf$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
    if (/nan$/.test(t)) return NaN;
    return Number(t);
  }

  /** None, True, False, nan, inf; or a call such as np.float64(0.5), read as its one argument. */
  private word(): unknown {
    const m = /^[A-Za-z_][\w.]*/.exec(this.s.slice(this.at, this.at + 128))!;
    this.at += m[0].length;
    if (m[0] in WORDS) return WORDS[m[0]];
    this.blanks();
    if (this.s[this.at] === '(') {
      this.at++;
      const inner = this.value();
      this.blanks();
      if (this.s[this.at] !== ')') this.fail(`${m[0]}(…) takes one value here`);
      this.at++;
      return inner;
    }
    return this.fail(`unknown name ${m[0]}`);
  }
}
