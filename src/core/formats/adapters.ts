// The harness adapters over the one sample record (src/core/samples/record.ts), and the judge
// readers (src/core/judges/): each says from a file's name and first kilobytes whether the file is
// its harness's, and parses it. detect.ts asks them in this order, after the formats of its own and
// before the generic table reader; score.ts parses with them. A new harness is one entry here.
import type { FormatName, ParseResult } from '../types';
import type { FileInput, FormatContext } from './context';
import { helmAdapter } from './helm';
import { lightevalAdapter } from './lighteval';
import { promptfooAdapter } from './promptfoo';
import { openCompassAdapter } from './opencompass';
import { eeeAdapter } from './eee';
import { summaryAdapter } from './summary';
import { alpacaEvalAdapter } from '../judges/alpacaEval';
import { mtBenchAdapter } from '../judges/mtBench';
import { arenaAdapter } from '../judges/arena';
import { arenaHardAdapter } from '../judges/arenaHard';

export interface HarnessAdapter {
  format: FormatName;
  /** True when the file (its path, and its first DETECT_HEAD_BYTES decoded) is this harness's. */
  detect(path: string, head: string): boolean;
  parse(input: FileInput, ctx: FormatContext): ParseResult;
}

/** In the order detection asks them: the most specific shapes first, summaries last. */
export const ADAPTERS: readonly HarnessAdapter[] = [
  eeeAdapter, helmAdapter, lightevalAdapter, promptfooAdapter, openCompassAdapter,
  // Arena-Hard-Auto before MT-Bench: its games carry MT-Bench's user_prompt and judgment keys.
  alpacaEvalAdapter, arenaHardAdapter, mtBenchAdapter, arenaAdapter, summaryAdapter,
];

/** The adapter whose harness the file is, if any. */
export function detectAdapter(path: string, head: string): HarnessAdapter | undefined {
  return ADAPTERS.find((a) => a.detect(path, head));
}

export function adapterFor(format: FormatName): HarnessAdapter | undefined {
  return ADAPTERS.find((a) => a.format === format);
}
