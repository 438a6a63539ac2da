// markdown-it 14 ships no types: the part the sample view uses (its parser, never its HTML renderer).
declare module 'markdown-it' {
  export interface Token {
    type: string;
    tag: string;
    nesting: 1 | 0 | -1;
    content: string;
    children: Token[] | null;
    info: string;
    markup: string;
    attrGet(name: string): string | null;
  }
  export interface Options {
    html?: boolean;
    linkify?: boolean;
    typographer?: boolean;
    breaks?: boolean;
  }
  export default class MarkdownIt {
    constructor(options?: Options);
    parse(src: string, env: object): Token[];
    validateLink(url: string): boolean;
  }
}
