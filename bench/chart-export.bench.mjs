// How long the report panel takes to make a chart's PNG (drawn again at 3x) and SVG (drawn again on
// svgcanvas), and how big the files are. The panel is the production webview bundle in the preview
// harness (test/webview-preview), in Debian's Chromium; each export is the menu's own code path,
// timed in the page around the select's change event (the export is synchronous up to the post).
//   node bench/chart-export.bench.mjs [--runs 7] [--samples folktexts,raft-real]
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, samples: { type: 'string', default: 'folktexts,raft-real,almanacs' }, port: { type: 'string', default: '8139' } } });
const runs = Number(values.runs);
const port = Number(values.port);

const server = spawn(process.execPath, ['test/webview-preview/preview.mjs', 'serve', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
await new Promise((resolve, reject) => {
  // The harness says where it listens on standard error.
  const listening = (d) => { if (String(d).includes(`http://127.0.0.1:${port}/`)) resolve(); };
  server.stdout.on('data', listening);
  server.stderr.on('data', listening);
  server.on('exit', (code) => reject(new Error(`preview server exited ${code}`)));
});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  console.log(`chart export, median of ${runs} runs (ms) and file size (KB)`);
  for (const sample of values.samples.split(',')) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 1 });
    await page.goto(`http://127.0.0.1:${port}/${sample}?theme=light`);
    await page.waitForFunction(() => document.body.dataset.rendered !== undefined || !!document.querySelector('canvas'), null, { timeout: 60_000 });
    await page.focus('#export-select');
    const choices = await page.locator('#export-select option').evaluateAll((os) => os.map((o) => o.value).filter((v) => /^(png|svg):/.test(v)));
    for (const choice of choices) {
      const result = await page.evaluate(({ choice, runs }) => {
        const select = document.getElementById('export-select');
        const times = [];
        let bytes = 0;
        for (let r = 0; r < runs; r++) {
          const t = performance.now();
          select.value = choice;
          select.dispatchEvent(new Event('change'));
          times.push(performance.now() - t);
          const request = window.__posted.filter((m) => m.type === 'export').pop().request;
          bytes = request.format === 'png' ? Math.floor((request.base64.length * 3) / 4) : new Blob([request.text]).size;
        }
        return { times, bytes };
      }, { choice, runs });
      console.log(`${sample.padEnd(10)} ${choice.padEnd(22)} ${median(result.times).toFixed(1).padStart(7)} ms ${(result.bytes / 1024).toFixed(1).padStart(8)} KB`);
    }
    await page.close();
  }
} finally {
  await browser.close();
  server.kill();
}
