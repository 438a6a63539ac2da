// The report's instance pages travel after its first chart and, when the intervals pass is still
// running, after the intervals (issue 28 point 11): on two cores the table's transfer and build would
// otherwise share them with the resamples. Never longer than a few seconds: a pass that fails or
// takes long does not hold the table. The page's 'rendered' is faked; the timers too.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InstancePages } from '../../src/extension/report/instancePages';
import type { HostToWebview, InstancePage } from '../../src/protocol';

/** A minimal vscode.Event the test fires by hand. */
function emitter<T>() {
  const listeners = new Set<(v: T) => void>();
  const event = (listener: (v: T) => void) => {
    listeners.add(listener);
    return { dispose: () => listeners.delete(listener) };
  };
  return { event, fire: (v: T) => { for (const l of [...listeners]) l(v); } };
}

const page = (index: number): InstancePage => ({ index, offset: index * 2, count: 2, data: { value: new Float64Array([0.1, 0.2]) } });

/** Lets promise callbacks run (fake timers do not advance them). */
const settle = () => new Promise<void>((r) => queueMicrotask(r)).then(() => new Promise<void>((r) => queueMicrotask(r)));

afterEach(() => { vi.useRealTimers(); });

describe('InstancePages: the pages wait for what goes ahead of them', () => {
  it('are sent once the first chart is painted and the intervals have arrived, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const rendered = emitter<unknown>();
    const pages = new InstancePages(rendered.event as never);
    pages.set([{ report: 0, page: page(0) }, { report: 0, page: page(1) }]);
    const sent: HostToWebview[] = [];
    let arrive = () => {};
    const intervals = new Promise<void>((r) => { arrive = r; });
    const done = pages.post(7, async (m) => { sent.push(m); return true; }, () => true, intervals);
    pages.rendered(7);
    rendered.fire({});
    await settle();
    expect(sent).toHaveLength(0); // painted, but the intervals are still to come
    vi.advanceTimersByTime(1_000);
    await settle();
    expect(sent).toHaveLength(0);
    arrive();
    const result = await done;
    expect(sent.map((m) => m.type)).toEqual(['instances', 'instances']);
    expect(result?.pages).toBe(2);
  });

  it('intervals that never come hold the pages a few seconds at most', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const rendered = emitter<unknown>();
    const pages = new InstancePages(rendered.event as never);
    pages.set([{ report: 0, page: page(0) }]);
    const sent: HostToWebview[] = [];
    const done = pages.post(3, async (m) => { sent.push(m); return true; }, () => true, new Promise<void>(() => {}));
    pages.rendered(3);
    rendered.fire({});
    await settle();
    vi.advanceTimersByTime(3_999);
    await settle();
    expect(sent).toHaveLength(0);
    vi.advanceTimersByTime(2);
    await done;
    expect(sent).toHaveLength(1);
  });

  it('without anything ahead, the pages go as soon as the chart is painted', async () => {
    const rendered = emitter<unknown>();
    const pages = new InstancePages(rendered.event as never);
    pages.set([{ report: 0, page: page(0) }]);
    const sent: HostToWebview[] = [];
    pages.rendered(5);
    await pages.post(5, async (m) => { sent.push(m); return true; }, () => true);
    expect(sent).toHaveLength(1);
  });
});
