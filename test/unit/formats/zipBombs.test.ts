// Compressed input is inflated within a size limit (issue 22): an `.eval` whose entry declares or
// inflates past 256 MB (or the file size limit, when smaller) is refused with a sentence naming the
// sizes and the limit, before or while inflating, and the CLI stays under 400 MB doing it. Also a
// seeded fuzz of real `.eval` logs: truncated, bit-flipped, with lying sizes, they never throw.
import { describe, expect, it, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createDeflateRaw } from 'node:zlib';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { fileInput } from '../../../src/core/formats/context';
import { parseInspect } from '../../../src/core/formats/inspect';
import { unzipBounded, inflateBounded, MAX_INFLATED_BYTES } from '../../../src/core/formats/boundedInflate';
import { resolveOptions } from '../../../src/core/report';
import { nodeCompanionReader } from '../../../src/core/io';
import { mulberry32 } from '../../../src/core/metrics/bootstrap';

const root = join(__dirname, '..', '..', '..');
const enc = new TextEncoder();

interface Entry { name: string; data: Uint8Array; method: 0 | 8; size: number; crc?: number }

/** A zip written by hand, so that its headers can lie. */
function zip(entries: Entry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc ?? 0, 14); local.writeUInt32LE(e.data.length, 18); local.writeUInt32LE(e.size, 22); local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0); dir.writeUInt16LE(20, 4); dir.writeUInt16LE(20, 6); dir.writeUInt16LE(e.method, 10);
    dir.writeUInt32LE(e.crc ?? 0, 16); dir.writeUInt32LE(e.data.length, 20); dir.writeUInt32LE(e.size, 24); dir.writeUInt16LE(name.length, 28); dir.writeUInt32LE(offset, 42);
    parts.push(local, name, e.data);
    central.push(dir, name);
    offset += 30 + name.length + e.data.length;
  }
  const dirSize = central.reduce((s, p) => s + p.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirSize, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

/** `size` spaces, raw-deflated, without holding them in memory. */
async function deflatedSpaces(size: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  const deflate = createDeflateRaw({ level: 9 });
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const block = Buffer.alloc(4 * 1024 * 1024, 0x20);
  for (let left = size; left > 0; left -= block.length) {
    const piece = left >= block.length ? block : block.subarray(0, left);
    if (!deflate.write(piece)) await new Promise((r) => deflate.once('drain', r));
  }
  await new Promise((r) => deflate.end(r));
  return Buffer.concat(chunks);
}

const header = enc.encode(JSON.stringify({ version: 2, status: 'success', eval: { task: 'bomb', model: 'm' } }));

function inspect(bytes: Uint8Array, maxFileBytes?: number) {
  return parseInspect(fileInput('/tmp/bomb.eval', bytes), { options: resolveOptions({ maxFileBytes }), io: nodeCompanionReader });
}

describe('bounded inflation of .eval zips', () => {
  const GB15 = 1536 * 1024 * 1024;
  let bombData: Uint8Array;
  let dir: string;
  beforeAll(async () => {
    bombData = await deflatedSpaces(GB15);
    dir = mkdtempSync(join(tmpdir(), 'eval-lens-bomb-'));
  }, 120_000);

  it('refuses an entry that declares 1.5 GB before inflating it', () => {
    expect(bombData.length).toBeLessThan(2 * 1024 * 1024);
    const r = inspect(zip([{ name: 'header.json', data: header, method: 0, size: header.length }, { name: 'samples/1_epoch_1.json', data: bombData, method: 8, size: GB15 }]));
    expect(r.set).toBeNull();
    expect(r.fatal).toMatch(/samples\/1_epoch_1\.json declares 1\.5 GB uncompressed, above the 256 MB limit on inflated data; it was not inflated/);
  });

  it('stops inflating an entry whose header lies small, at the size it declared', () => {
    const r = inspect(zip([{ name: 'header.json', data: header, method: 0, size: header.length }, { name: 'samples/1_epoch_1.json', data: bombData, method: 8, size: 2048 }]));
    expect(r.fatal).toMatch(/samples\/1_epoch_1\.json inflates past the 2 KB its header declares: the file is damaged or hostile/);
  });

  it('the file size limit applies when it is smaller than 256 MB', () => {
    const data = deflateRawSync(Buffer.alloc(5 * 1024 * 1024, 0x20));
    const r = inspect(zip([{ name: 'header.json', data: header, method: 0, size: header.length }, { name: 'samples/1_epoch_1.json', data, method: 8, size: 5 * 1024 * 1024 }]), 1024 * 1024);
    expect(r.fatal).toMatch(/declares 5 MB uncompressed, above the 1 MB limit set by evalLens\.maxFileSizeMB \/ --max-file-mb/);
    // Under the limit the same entry is read (as a sample of spaces: not JSON, skipped).
    const files = unzipBounded(zip([{ name: 'a.json', data, method: 8, size: 5 * 1024 * 1024 }]), () => true, MAX_INFLATED_BYTES);
    expect(files['a.json'].length).toBe(5 * 1024 * 1024);
    expect(files['a.json'].every((b) => b === 0x20)).toBe(true);
  });

  it('many entries just under the limit are refused together', () => {
    const data = deflateRawSync(Buffer.alloc(1024, 0x20));
    const entries: Entry[] = Array.from({ length: 3 }, (_, k) => ({ name: `s${k}.json`, data, method: 8 as const, size: 200 * 1024 * 1024 }));
    expect(() => unzipBounded(zip(entries), () => true, MAX_INFLATED_BYTES)).toThrow(/declare 600 MB uncompressed together, above the 256 MB limit on inflated data/);
  });

  it('an entry that inflates short of its declared size is damaged, not silently padded', () => {
    const data = deflateRawSync(Buffer.from('{"a": 1}'));
    expect(() => inflateBounded('x.json', data, 100, MAX_INFLATED_BYTES)).toThrow(/inflates to 8 bytes, not the 100 bytes its header declares/);
  });

  it('eval-lens score on the 1.5 GB bomb exits 2 with the sentence, under 400 MB of memory', () => {
    const cli = join(root, 'dist', 'cli.js');
    if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run node scripts/build.mjs');
    for (const [name, size] of [['honest.eval', GB15], ['lying.eval', 4096]] as const) {
      const path = join(dir, name);
      writeFileSync(path, zip([{ name: 'header.json', data: header, method: 0, size: header.length }, { name: 'samples/1_epoch_1.json', data: bombData, method: 8, size }]));
      // The child reports its own peak RSS on exit (resourceUsage is in KB).
      const r = spawnSync(process.execPath, ['-e', `process.on('exit', () => process.stderr.write('MAXRSS ' + process.resourceUsage().maxRSS + '\\n')); process.argv = [process.argv[0], ${JSON.stringify(cli)}, 'score', ${JSON.stringify(path)}]; require(${JSON.stringify(cli)});`], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stdout + r.stderr).toMatch(size === GB15 ? /declares 1\.5 GB uncompressed, above the 256 MB limit/ : /inflates past the 4 KB its header declares/);
      const rss = Number(/MAXRSS (\d+)/.exec(r.stderr)?.[1]) * 1024;
      expect(rss).toBeGreaterThan(0);
      expect(rss).toBeLessThan(400 * 1024 * 1024);
    }
  }, 60_000);
});

describe('fuzzed real .eval logs never throw', () => {
  const logs = [join(root, 'test', 'fixtures', 'inspect', 'epochs.eval'), join(root, 'test', 'fixtures', 'real', 'inspect-ai', 'mmlu-summary-choices.eval')];

  it('truncations, bit flips and lying central-directory sizes give a report or a fatal sentence', () => {
    const random = mulberry32(20261201);
    let cases = 0;
    let fatal = 0;
    for (const path of logs) {
      const bytes = new Uint8Array(readFileSync(path));
      const good = inspect(bytes);
      expect(good.fatal).toBeUndefined();
      const endAt = Buffer.from(bytes).lastIndexOf(Buffer.from([0x50, 0x4b, 5, 6]));
      const dirAt = Buffer.from(bytes).readUInt32LE(endAt + 16);
      for (let k = 0; k < 150; k++) {
        const b = bytes.slice();
        const kind = k % 3;
        let input: Uint8Array = b;
        if (kind === 0) input = b.slice(0, Math.floor(random() * b.length));
        else if (kind === 1) for (let f = 0; f < 1 + Math.floor(random() * 10); f++) b[Math.floor(random() * b.length)] ^= 1 << Math.floor(random() * 8);
        else {
          // A size field of the central directory's first entries set to a random 32-bit value.
          const entry = dirAt + 46 * Math.floor(random() * 2);
          Buffer.from(b.buffer).writeUInt32LE(Math.floor(random() * 0xffffffff), entry + (random() < 0.5 ? 20 : 24));
        }
        const r = inspect(input);
        cases++;
        if (r.fatal) {
          fatal++;
          // A sentence for the user, never an internal error or a stack.
          expect(r.fatal).toMatch(/^(Not a readable Inspect log: |The log holds no samples).+\.$/);
          expect(r.fatal).not.toMatch(/internal|TypeError|RangeError|undefined/);
          expect(r.set).toBeNull();
        }
      }
    }
    console.log(`fuzzed .eval: ${cases} cases, ${fatal} refused with a sentence, the rest scored`);
    expect(fatal).toBeGreaterThan(0);
  });
});

describe('bounded decompression of Parquet pages', () => {
  it('a page that declares more than the file size limit is refused before it is inflated', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    const { scorePathAsync } = await import('../../../src/core/scoreAsync');
    // Few rows of one long text: a page of 680 KB that snappy holds in 32 KB.
    const n = 4;
    const buf = parquetWriteBuffer({
      columnData: [
        { name: 'id', data: Array.from({ length: n }, (_, k) => `r${k}`), type: 'STRING' },
        { name: 'score', data: [0.1, 0.8, 0.3, 0.6], type: 'DOUBLE' },
        { name: 'label', data: Array.from({ length: n }, (_, k) => k % 2), type: 'INT32' },
        { name: 'text', data: Array.from({ length: n }, () => 'a long and very repetitive prompt '.repeat(20000)), type: 'STRING' },
      ],
    });
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-pq-'));
    const path = join(dir, 'pages.parquet');
    writeFileSync(path, new Uint8Array(buf));
    const size = new Uint8Array(buf).length;
    const limit = 512 * 1024;
    expect(size).toBeLessThan(limit); // the file passes the size check; its pages do not
    const refused = await scorePathAsync(path, { maxFileBytes: limit });
    expect(refused.reports[0].fatal).toMatch(/a SNAPPY page of the Parquet file declares [\d.]+ (KB|MB) uncompressed, above the 512 KB limit set by evalLens\.maxFileSizeMB \/ --max-file-mb; it was not inflated/);
    // With the default limit the same file scores, every row.
    const scored = await scorePathAsync(path, {});
    expect(scored.reports[0].fatal).toBeUndefined();
    expect(scored.reports[0].n).toBe(n);
  });
});
