// The host's checks on what a webview sends to save: only a PNG is a PNG, only a drawing is an SVG
// (the webview's content is data), and a suggested name stays a plain file name.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isPlainSvg, isPng, safeFileName } from '../../../src/common/exportProtocol';

const SVG_HEAD = '<svg version="1.1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="300">';

function svg(body: string): string {
  return `${SVG_HEAD}<defs><clipPath id="a"><path d="M 0 0 L 1 1 Z"/></clipPath></defs><g clip-path="url(#a)">${body}</g></svg>`;
}

/** Charts as the panel exported them (svgcanvas in Chromium, high-contrast theme): the hostile RAFT task's F1 per class, a ROC curve. */
const EXPORTED = join(__dirname, '..', '..', 'fixtures', 'svg');

describe('isPlainSvg', () => {
  it('accepts the charts the panel exports, hostile class names included', () => {
    for (const name of ['hostile-f1.svg', 'folktexts-roc.svg']) expect(isPlainSvg(readFileSync(join(EXPORTED, name), 'utf8')), name).toBe(true);
    expect(readFileSync(join(EXPORTED, 'hostile-f1.svg'), 'utf8')).toContain('&lt;img src=x onerror=');
  });

  it('accepts a chart: paths, text, clip paths, and labels from the files escaped as text', () => {
    expect(isPlainSvg(svg('<path fill="none" stroke="rgb(1,2,3)" stroke-dasharray="5,4" d="M 0 0 L 10 10"/><text x="1" y="2">ROC (AUC 0.813)</text>'))).toBe(true);
    // What the serializer makes of a RAFT class name holding markup: escaped text, still a drawing.
    expect(isPlainSvg(svg('<text>&lt;img src=x onerror="window.__pwned=1"&gt;</text><text>&lt;script&gt;alert(1)&lt;/script&gt;</text>'))).toBe(true);
    expect(isPlainSvg(`<?xml version="1.0"?>\n${svg('')}\n`)).toBe(true);
  });

  it.each([
    ['a script element', svg('<script>alert(1)</script>')],
    ['a script element in another case', svg('<SCRIPT>alert(1)</SCRIPT>')],
    ['an event handler', svg('<path onclick="alert(1)" d="M 0 0"/>')],
    ['an event handler on the root', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'],
    ['embedded HTML', svg('<foreignObject><div>x</div></foreignObject>')],
    ['a link out', svg('<a href="https://example.com/"><text>x</text></a>')],
    ['an xlink out', svg('<image xlink:href="https://example.com/x.png"/>')],
    ['a javascript: URL', svg('<a href="javascript:alert(1)"><text>x</text></a>')],
    ['a <use> element (no chart has one)', svg('<use href="#a"/>')],
    ['HTML', '<html><body><svg></svg></body></html>'],
    ['text before the drawing', `hello${svg('')}`],
    ['an unclosed drawing', SVG_HEAD],
    ['not text', 42 as unknown as string],
    // Found in review: a namespace prefix, a '>' inside a value, an entity-encoded URL, a style sheet.
    ['an HTML script under a prefix', '<svg xmlns="http://www.w3.org/2000/svg" xmlns:h="http://www.w3.org/1999/xhtml"><h:script>alert(1)</h:script></svg>'],
    ['a handler after a ">" in a value', '<svg xmlns="http://www.w3.org/2000/svg" width=">" onload="alert(1)"></svg>'],
    ['an animation setting a javascript: href', svg('<a><set attributeName="href" to="&#x6a;avascript:alert(1)"/><text>x</text></a>')],
    ['an entity-encoded URL in an allowed attribute', svg('<path fill="url(&#x6a;avascript:alert(1))" d="M 0 0"/>')],
    ['a style sheet', svg('<style>@import url(https://example.com/x.css);</style>')],
    ['a url() out of the document', svg('<path fill="url(https://example.com/p.svg#x)" d="M 0 0"/>')],
    ['a CDATA section', svg('<text><![CDATA[<script>alert(1)</script>]]></text>')],
    ['a comment', svg('<!-- x --><path d="M 0 0"/>')],
    ['a second root', `${svg('')}<svg xmlns="http://www.w3.org/2000/svg"></svg>`],
    ['mismatched tags', `${SVG_HEAD}<g><path d="M 0 0"></g></path></svg>`],
    ['another namespace for the drawing', '<svg xmlns="http://www.w3.org/1999/xhtml"></svg>'],
  ])('refuses %s', (_what, text) => {
    expect(isPlainSvg(text)).toBe(false);
  });

  it('takes internal references (url(#id)) as part of the drawing, and no link at all', () => {
    expect(isPlainSvg(svg('<g clip-path="url(#a)"><path d="M 0 0"/></g>'))).toBe(true);
    expect(isPlainSvg(svg('<a href="#a"><text>x</text></a>'))).toBe(false);
  });
});

describe('isPng', () => {
  const signature = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  it('accepts bytes that start with the PNG signature and refuses anything else', () => {
    const png = new Uint8Array([...signature, ...deflateSync(Buffer.from('IHDR'))]);
    expect(isPng(png)).toBe(true);
    expect(isPng(signature)).toBe(false); // the signature alone is no image
    expect(isPng(new TextEncoder().encode('<svg onload=alert(1)>'))).toBe(false);
    expect(isPng(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0b, 0, 0]))).toBe(false);
  });
});

describe('safeFileName', () => {
  it('keeps a plain name and adds the extension once', () => {
    expect(safeFileName('banking_77.f1.svg', 'svg')).toBe('banking_77.f1.svg');
    expect(safeFileName('comparison.roc', 'png')).toBe('comparison.roc.png');
    expect(safeFileName('A.SVG', 'svg')).toBe('A.SVG');
  });
  it('turns separators, reserved and control characters into _, so a name cannot leave the folder', () => {
    expect(safeFileName('../../etc/passwd', 'csv')).toBe('.._.._etc_passwd.csv');
    expect(safeFileName('C:\\x<y>|z?*"\n', 'csv')).toBe('C_x_y_z_.csv');
    expect(safeFileName('', 'png')).toBe('export.png');
    expect(safeFileName('x'.repeat(500), 'png')).toHaveLength(124);
  });
});
