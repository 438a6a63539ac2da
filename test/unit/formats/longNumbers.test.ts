// Number literals too long to read, found in the text: the quick test probes one position in every
// MAX_NUMERIC_CHARS + 1 (a run that long covers one), so runs at every offset and length near the
// limit must still be found, and prose full of "e"s must cost nothing and find nothing.
import { describe, expect, it } from 'vitest';
import { longNumberOffsets } from '../../../src/core/formats/longNumbers';
import { MAX_NUMERIC_CHARS } from '../../../src/core/formats/numbers';

const digits = (n: number) => '7'.repeat(n);

describe('longNumberOffsets', () => {
  it('finds a literal one character over the limit at every offset across a probe, and none at the limit', () => {
    for (let pad = 0; pad < 2 * (MAX_NUMERIC_CHARS + 1); pad += 97) {
      const text = `${' '.repeat(pad)}[${digits(MAX_NUMERIC_CHARS + 1)}]`;
      expect(longNumberOffsets(text), `pad ${pad}`).toEqual([pad + 1]);
      expect(longNumberOffsets(`${' '.repeat(pad)}[${digits(MAX_NUMERIC_CHARS)}]`), `pad ${pad}`).toEqual([]);
    }
  });

  it('ignores digits inside strings and runs of number characters that are no literal', () => {
    expect(longNumberOffsets(`{"a": "${digits(5000)}"}`)).toEqual([]);
    expect(longNumberOffsets('e'.repeat(3000))).toEqual([]);
    expect(longNumberOffsets(`[${digits(700)}, ${digits(700)}]`)).toEqual([]);
  });

  it('finds every long literal, a negative one from its sign', () => {
    const text = `[${digits(2500)}, 1, -${digits(1200)}]`;
    expect(longNumberOffsets(text)).toEqual([1, 1 + 2500 + ", 1, ".length]);
  });
});
