// The report webview's Content Security Policy and HTML (src/extension/report/panelHtml.ts), as served.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { escapeAttribute, makeNonce, panelCsp, panelHtml, scriptText } from '../../../src/extension/report/panelHtml';

const input = { cspSource: 'https://file+.vscode-resource.vscode-cdn.net', nonce: 'abc123', scriptUri: 'https://x/dist/webview.js', styleUri: 'https://x/dist/webview.css' };

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
}

describe('Content Security Policy', () => {
  const csp = directives(panelCsp(input.cspSource, input.nonce));

  it('denies everything by default', () => {
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
  });

  it('runs only scripts that carry the nonce: no eval, no inline code, no host allow-list', () => {
    expect(csp.get('script-src')).toEqual(["'nonce-abc123'"]);
  });

  it('takes styles, images and fonts from the extension only (images also as data:)', () => {
    expect(csp.get('style-src')).toEqual([input.cspSource]);
    expect(csp.get('img-src')).toEqual([input.cspSource, 'data:']);
    expect(csp.get('font-src')).toEqual([input.cspSource]);
  });

  it('has no unsafe source, no connect-src and no remote origin anywhere', () => {
    const text = panelCsp(input.cspSource, input.nonce);
    expect(text).not.toMatch(/unsafe-(eval|inline|hashes)|wasm-unsafe-eval|\*(?!\.)/);
    expect(csp.has('connect-src')).toBe(false); // falls back to default-src 'none'
    expect(text).not.toMatch(/https?:\/\/(?!file\+\.vscode-resource)/);
  });
});

describe('panel HTML', () => {
  const html = panelHtml(input);

  it('puts the policy in a meta tag before any script or stylesheet', () => {
    const meta = html.indexOf('http-equiv="Content-Security-Policy"');
    expect(meta).toBeGreaterThan(0);
    expect(meta).toBeLessThan(html.indexOf('<link'));
    expect(meta).toBeLessThan(html.indexOf('<script'));
  });

  it('loads exactly one script, with the nonce, and no inline script or style', () => {
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts).toEqual([`<script nonce="abc123" src="${input.scriptUri}">`]);
    expect(html).not.toMatch(/<script[^>]*>[^<]+<\/script>/);
    expect(html).not.toMatch(/<style|style="/);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it('escapes attribute values', () => {
    expect(escapeAttribute('"><script>')).toBe('&quot;&gt;&lt;script&gt;');
    expect(panelHtml({ ...input, scriptUri: 'x"><script>alert(1)</script>' })).not.toContain('"><script>alert');
  });

  it('with the bundle inline: one script and one style element, both with the nonce, and the policy allows styles by that nonce only', () => {
    const inlined = panelHtml({ ...input, inline: { script: 'document.body.dataset.x = "1";', style: 'body { color: red; }' } });
    const scripts = inlined.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts).toEqual(['<script nonce="abc123">']);
    expect(inlined).toContain('<script nonce="abc123">document.body.dataset.x = "1";</script>');
    expect(inlined).toContain('<style nonce="abc123">body { color: red; }</style>');
    expect(inlined).not.toMatch(/<link|src=/);
    const meta = /content="([^"]+)"/.exec(inlined)![1].replace(/&#39;/g, "'");
    const policy = directives(meta);
    expect(policy.get('script-src')).toEqual(["'nonce-abc123'"]);
    expect(policy.get('style-src')).toEqual([input.cspSource, "'nonce-abc123'"]);
    expect(meta).not.toMatch(/unsafe-/);
    expect(inlined).not.toMatch(/\son[a-z]+=|style="/i);
  });

  it('an inline script cannot end its element or open an HTML comment, and means the same', () => {
    const code = 'window.__t = ["</script><img src=x onerror=alert(1)>", /<!--/.test("<!--"), `</SCRIPT>`];';
    const safe = scriptText(code);
    expect(safe).not.toMatch(/<\/script|<!--/i);
    // The same values, evaluated by a separate Node.
    const run = (c: string) => execFileSync(process.execPath, ['-e', `const window = {}; ${c}; process.stdout.write(JSON.stringify(window.__t))`], { encoding: 'utf8' });
    expect(run(safe)).toBe(run(code));
    const inlined = panelHtml({ ...input, inline: { script: code, style: '' } });
    expect(inlined.match(/<\/script>/gi)).toHaveLength(1);
  });

  it("the production bundle inlined: the page's one </script> is its own, no <!-- anywhere, the style sheet inlined too", async () => {
    const esbuild = await import('esbuild');
    const built = await esbuild.build({
      entryPoints: ['webview/report/main.ts'], bundle: true, minify: true, platform: 'browser', format: 'iife', target: 'es2022',
      write: false, outdir: 'out/csp-test', logLevel: 'silent',
    });
    const text = (ext: string) => built.outputFiles.find((f) => f.path.endsWith(ext))!.text;
    const html = panelHtml({ ...input, inline: { script: text('.js'), style: text('.css') } });
    // Booleans and counts: a failure should not print half a megabyte of page.
    expect(html.match(/<\/script/gi)?.length).toBe(1);
    expect(html.includes('<!--')).toBe(false);
    expect(html.includes('<style nonce="abc123">')).toBe(true);
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script nonce="abc123">']);
    expect(/<link\b/.test(html)).toBe(false);
  }, 60_000);

  it('a style sheet that would end its element early is not inlined: both come from their URIs', () => {
    const html = panelHtml({ ...input, inline: { script: 'x()', style: 'a::after { content: "</style><script>" }' } });
    expect(html).toContain(`<script nonce="abc123" src="${input.scriptUri}">`);
    expect(html).toContain(`<link rel="stylesheet" href="${input.styleUri}">`);
    expect(html).not.toContain('x()');
  });

  it('makes a fresh 32-character nonce each time', () => {
    const a = makeNonce();
    expect(a).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(makeNonce()).not.toBe(a);
  });
});
