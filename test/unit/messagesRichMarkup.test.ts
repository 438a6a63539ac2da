// Inspect writes some error texts in Rich's console markup (every_eval_ever's
// tests/data/inspect/inspect_shortened/healthbench.json: "[bold]ERROR[/bold]: OpenAI API requires
// optional dependencies"). Our messages show the words without the tags, as plain text; bracketed
// text that is not surely a tag stays.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../src/core';
import { stripRichMarkup } from '../../src/core/formats/inspectMarkup';

describe('stripRichMarkup', () => {
  it.each([
    ['[bold]ERROR[/bold]: OpenAI API requires optional dependencies.', 'ERROR: OpenAI API requires optional dependencies.'],
    ['[red]failed[/] on [bold red on white]3[/bold red on white] samples', 'failed on 3 samples'],
    ['see [link=https://inspect.aisi.org.uk/]the docs[/link]', 'see the docs'],
    ['[dark_orange3]warn[/dark_orange3] and [b]x[/b]', 'warn and x'],
    ['[italic]unclosed at the end', 'unclosed at the end'],
    ['[#ff0000]hex[/] [rgb(1,2,3)]rgb[/]', 'hex rgb'],
  ])('takes the tags out: %s', (input, want) => {
    expect(stripRichMarkup(input)).toBe(want);
  });

  it.each([
    'IndexError: list[i] out of range',
    'expected [str], got [int]',
    'file not found [/tmp/x.json]',
    'KeyError: [0]',
    'closer of nothing [/bold] stays',
  ])('keeps bracketed text that is not surely a tag: %s', (input) => {
    expect(stripRichMarkup(input)).toBe(input);
  });

  it("reads Rich's escapes: \\[bold] is the text [bold]", () => {
    expect(stripRichMarkup('type \\[bold] to get bold')).toBe('type [bold] to get bold');
    expect(stripRichMarkup('a \\\\[bold]b[/bold]')).toBe('a \\b');
  });

  it('leaves HTML-like text as text (it is data, never markup)', () => {
    expect(stripRichMarkup('[bold]<script>alert(1)</script>[/bold]')).toBe('<script>alert(1)</script>');
  });
});

describe("an Inspect log's status message", () => {
  it('shows the error without Rich markup', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-rich-'));
    const p = join(dir, 'healthbench.json');
    writeFileSync(p, JSON.stringify({
      version: 2, status: 'error', eval: { task: 'inspect_evals/healthbench' },
      error: { message: '[bold]ERROR[/bold]: OpenAI API requires optional dependencies. Install with:\n\n[bold]pip install openai[/bold]', traceback: '' },
    }));
    const r = scoreFile(p);
    const status = r.problems.find((x) => x.code === 'incomplete-log');
    expect(status?.message).toContain('status is "error" (ERROR: OpenAI API requires optional dependencies. Install with:)');
    expect(status?.message).not.toMatch(/\[\/?bold\]/);
  });
});
