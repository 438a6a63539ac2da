// Inspect writes some error texts for its console, in Rich's markup: a log of an eval that failed
// on a missing package says `[bold]ERROR[/bold]: OpenAI API requires optional dependencies`. In our
// messages the tags are noise, so they are taken out; the text stays plain text (never rendered as
// markup or HTML). Only what is surely a tag goes: a closing tag that closes one taken out, an
// opening tag of Rich's style words or one that is closed later. Other bracketed text, such as
// `expected [str]` or `[/tmp/x]` in an exception's words, is kept as written.

/** Rich's tag (rich/markup.py RE_TAGS): backslashes before it escape it; a name starts with a-z, #, / or @. */
const TAG = /(\\*)\[([a-z#/@][^[\]]*?)\]/g;

/**
 * Rich's text attributes (rich/style.py), whole words only: its one-letter forms ([b], [i]) read
 * too easily as an index in an exception's text, so those go only when closed later.
 */
const ATTRIBUTES = new Set(['bold', 'dim', 'italic', 'underline', 'blink', 'blink2', 'reverse', 'conceal', 'strike', 'underline2', 'frame', 'encircle', 'overline']);

/**
 * Colours a tag may hold alone and still be taken for a style: the 16 standard names, greyN, #rrggbb,
 * rgb(r,g,b), color(n). Rich's other named colours (dark_orange3, ...) are taken only when their
 * tag is closed later, so a bracketed identifier in an exception's words is not lost.
 */
const COLOR = /^(?:(?:bright_)?(?:black|red|green|yellow|blue|magenta|cyan|white)|gr[ae]y\d{1,3}|#[0-9a-f]{6}|rgb\(\d{1,3},\d{1,3},\d{1,3}\)|color\(\d{1,3}\))$/i;

/** Whether a tag's words are a Rich style: attributes and colours, joined by "not" and "on" ("bold", "red on white"). */
function isStyle(content: string): boolean {
  const words = content.trim().split(/\s+/);
  const styled = (w: string) => ATTRIBUTES.has(w) || COLOR.test(w);
  return words.every((w) => styled(w) || w === 'not' || w === 'on') && words.some(styled);
}

function isLink(content: string): boolean {
  return /^link(=\S+)?$/.test(content.trim());
}

/** `text` without Rich's markup tags, its escaped brackets (`\[`) as the brackets they stand for. */
export function stripRichMarkup(text: string): string {
  if (!text.includes('[')) return text;
  const tags = [...text.matchAll(TAG)];
  const open: string[] = [];
  let out = '';
  let at = 0;
  tags.forEach((m, k) => {
    const start = m.index!;
    out += text.slice(at, start);
    at = start + m[0].length;
    const slashes = m[1].length;
    const content = m[2];
    // Rich: pairs of backslashes are backslashes; an odd one left escapes the tag, shown literally.
    out += '\\'.repeat(Math.floor(slashes / 2));
    if (slashes % 2 === 1) {
      out += `[${content}]`;
      return;
    }
    if (content.startsWith('/')) {
      const name = content.slice(1).trim();
      // `[/]` closes the last tag opened; `[/bold]` the last `bold`. A closer of nothing is text.
      const i = name === '' ? open.length - 1 : open.lastIndexOf(name);
      if (i >= 0) open.length = i;
      else out += m[0].slice(slashes);
      return;
    }
    const name = content.trim();
    const closes = (n: RegExpMatchArray) => n[1].length % 2 === 0 && n[2].startsWith('/') && ['', name, name.split('=')[0]].includes(n[2].slice(1).trim());
    const closedLater = tags.slice(k + 1).some(closes);
    if (isStyle(name) || isLink(name) || closedLater) open.push(name.startsWith('link') ? 'link' : name);
    else out += m[0].slice(slashes);
  });
  return out + text.slice(at);
}
