// Members cut out of a JSON object's bytes before parsing (src/core/formats/jsonSkip.ts): the rest
// parses to exactly the object without them, whatever the members hold (strings with quotes,
// braces and escapes, nesting, any spacing), checked on random objects with fast-check.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutTopLevelKeys } from '../../../src/core/formats/jsonSkip';

const enc = new TextEncoder();
const dec = new TextDecoder();
const cut = (text: string, keys: string[]) => dec.decode(withoutTopLevelKeys(enc.encode(text), keys));

describe('withoutTopLevelKeys', () => {
  it('leaves out the named members and keeps the others as they are (random objects, compact and pretty)', () => {
    const keyArb = fc.constantFrom('events', 'attachments', 'id', 'messages', 'a"b', 'x\\y', 'store', 'z');
    const value = fc.jsonValue({ maxDepth: 3 });
    fc.assert(fc.property(fc.dictionary(keyArb, value, { maxKeys: 6 }), fc.subarray(['events', 'attachments', 'store', 'z']), fc.constantFrom(0, 2, '\t'), (obj, drop, indent) => {
      const text = JSON.stringify(obj, null, indent as number | string);
      const want = Object.fromEntries(Object.entries(obj).filter(([k]) => !drop.includes(k)));
      expect(JSON.parse(cut(text, drop))).toEqual(JSON.parse(JSON.stringify(want)));
    }), { numRuns: 500, seed: 29 });
  });

  it('braces, quotes and escapes inside strings do not end a member', () => {
    const text = '{"id": 1, "events": [{"s": "}]\\\\\\"{", "t": [1, {"u": "\\"]"}]}], "input": "x}"}';
    expect(JSON.parse(cut(text, ['events']))).toEqual({ id: 1, input: 'x}' });
    expect(JSON.parse(cut(text, ['input', 'id']))).toEqual({ events: [{ s: '}]\\"{', t: [1, { u: '"]' }] }] });
  });

  it('returns the same bytes when nothing is cut, and leaves what is not an object to the parser', () => {
    const bytes = enc.encode('{"a": NaN, "b": Infinity}');
    expect(withoutTopLevelKeys(bytes, ['events'])).toBe(bytes);
    expect(dec.decode(withoutTopLevelKeys(enc.encode('{"a": NaN, "events": [1], "b": -Infinity}'), ['events']))).toBe('{"a": NaN,"b": -Infinity}');
    const list = enc.encode('[1, 2]');
    expect(withoutTopLevelKeys(list, ['events'])).toBe(list);
  });
});
