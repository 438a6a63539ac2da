// svgcanvas 2.6 ships no types: the part the chart export uses (a canvas-like element whose 2D
// context records SVG).
declare module 'svgcanvas' {
  export class Context {
    getSerializedSvg(fixNamedEntities?: boolean): string;
  }
  export class Element {
    constructor(options: { width: number; height: number });
    width: number;
    height: number;
    readonly ctx: Context;
    getContext(type: '2d'): Context;
  }
}
