// An SVG file read by a real XML parser (Python's xml.dom.minidom, as test/unit/cli/plot.test.ts
// does), not by the browser that drew it: its root, its texts (decoded), its stroked paths, and
// every element and attribute name in it. Used by the end-to-end tests (vitest) and the
// extension-host tests (bundled by esbuild), so it names no file of its own.
import { execFileSync } from 'node:child_process';

export interface ParsedSvg {
  /** Element children of the document: one, the <svg>. */
  roots: string[];
  tag: string;
  ns: string;
  width: string;
  height: string;
  /** The character data of each <text>, entities decoded. */
  texts: string[];
  /**
   * Each <path>'s stroke, stroke-dasharray ('' when absent), the length of its `d`, and the width and
   * height its move-to and line-to points span (a curve across the plot, not a legend's box).
   */
  paths: { stroke: string; dash: string; d: number; span: [number, number] }[];
  /** Every element's tag name, lower-cased, once each. */
  tags: string[];
  /** Every attribute name used, lower-cased, once each. */
  attributes: string[];
}

const SCRIPT = `
import json, re, sys
from xml.dom import minidom
doc = minidom.parse(sys.argv[1])
root = doc.documentElement
roots = [n.tagName for n in doc.childNodes if n.nodeType == n.ELEMENT_NODE]
def text(node):
    return ''.join(text(c) if c.nodeType == c.ELEMENT_NODE else c.data for c in node.childNodes if c.nodeType in (c.TEXT_NODE, c.CDATA_SECTION_NODE, c.ELEMENT_NODE))
elements = doc.getElementsByTagName('*')
def span(d):
    pts = [(float(x), float(y)) for x, y in re.findall(r'[ML]\\s*(-?[\\d.]+(?:e-?\\d+)?)[\\s,]+(-?[\\d.]+(?:e-?\\d+)?)', d)]
    if not pts: return [0, 0]
    xs = [p[0] for p in pts]; ys = [p[1] for p in pts]
    return [max(xs) - min(xs), max(ys) - min(ys)]
print(json.dumps({
  "roots": roots, "tag": root.tagName, "ns": root.getAttribute('xmlns'), "width": root.getAttribute('width'), "height": root.getAttribute('height'),
  "texts": [text(t) for t in doc.getElementsByTagName('text')],
  "paths": [{"stroke": p.getAttribute('stroke'), "dash": p.getAttribute('stroke-dasharray'), "d": len(p.getAttribute('d')), "span": span(p.getAttribute('d'))} for p in doc.getElementsByTagName('path')],
  "tags": sorted({e.tagName.lower() for e in elements}),
  "attributes": sorted({e.attributes.item(i).name.lower() for e in elements for i in range(e.attributes.length)}),
}))`;

export function parseSvg(path: string): ParsedSvg {
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', SCRIPT, path], { encoding: 'utf8' })) as ParsedSvg;
}

/** The paths drawn with a stroke. */
export function strokedPaths(svg: ParsedSvg): ParsedSvg['paths'] {
  return svg.paths.filter((p) => p.stroke !== '' && p.stroke !== 'none');
}

/** The stroked paths drawn with a dash pattern. */
export function dashedPaths(svg: ParsedSvg): ParsedSvg['paths'] {
  return strokedPaths(svg).filter((p) => p.dash !== '' && p.dash !== 'none');
}

/** Of `paths`, those spanning more than half the drawing's width: curves and diagonals, not legend boxes or ticks. */
export function acrossThePlot(svg: ParsedSvg, paths: ParsedSvg['paths']): ParsedSvg['paths'] {
  return paths.filter((p) => p.span[0] > Number(svg.width) / 2);
}
