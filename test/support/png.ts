// A minimal PNG reader for tests: the file is decoded here with node:zlib, not by the library that
// drew it. 8-bit RGB or RGBA, not interlaced (what a canvas and the CLI's renderer write).
import { inflateSync } from 'node:zlib';

export interface DecodedPng { width: number; height: number; rgba: Uint8Array }

export function decodePng(png: Buffer): DecodedPng {
  if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG: bad signature');
  let pos = 8;
  let width = 0, height = 0, channels = 0;
  const idat: Buffer[] = [];
  while (pos < png.length) {
    const length = png.readUInt32BE(pos);
    const type = png.toString('latin1', pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8) throw new Error(`PNG bit depth ${data[8]}, expected 8`);
      if (data[12] !== 0) throw new Error('PNG is interlaced');
      channels = ({ 2: 3, 6: 4 } as Record<number, number>)[data[9]] ?? 0;
      if (!channels) throw new Error(`PNG colour type ${data[9]}, expected 2 or 6`);
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + length;
  }
  if (!width || !height) throw new Error('PNG without IHDR');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x];
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      let p = 0;
      if (filter === 1) p = a;
      else if (filter === 2) p = b;
      else if (filter === 3) p = (a + b) >> 1;
      else if (filter === 4) { const e = a + b - c; const pa = Math.abs(e - a), pb = Math.abs(e - b), pc = Math.abs(e - c); p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      pixels[y * stride + x] = (v + p) & 255;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    for (let k = 0; k < 3; k++) rgba[i * 4 + k] = pixels[i * channels + k];
    rgba[i * 4 + 3] = channels === 4 ? pixels[i * channels + 3] : 255;
  }
  return { width, height, rgba };
}

/** How many distinct RGBA colours the image holds (a drawn chart has many; a blank one, one). */
export function distinctColours(img: DecodedPng, limit = 100_000): number {
  const seen = new Set<number>();
  const view = new DataView(img.rgba.buffer, img.rgba.byteOffset, img.rgba.byteLength);
  for (let i = 0; i + 3 < img.rgba.length && seen.size < limit; i += 4) seen.add(view.getUint32(i));
  return seen.size;
}
