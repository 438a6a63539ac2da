// CPU time of a process tree, sampled from Linux's /proc, per group of threads, so a benchmark can
// say how much CPU each step of a timeline took and where (extension host's main thread, its
// scoring workers, Chromium's renderers, ...) on a machine too loaded for wall time to mean much.
//
// Every `intervalMs` the sampler reads /proc/<pid>/task/<tid>/schedstat (nanoseconds on a CPU) of
// every thread of every process below `rootPid`, adds each thread's growth since the last sample to
// its group, and keeps the cumulative series; cpuBetween(t0, t1) interpolates it at both ends.
// A thread that ends keeps what it used. The process list is re-read every `rescanMs`.
import { readdirSync, readFileSync } from 'node:fs';

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Children of every process: ppid -> pids (one pass over /proc). */
function childrenMap() {
  const map = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!map.has(ppid)) map.set(ppid, []);
    map.get(ppid).push(Number(name));
  }
  return map;
}

function descendants(root) {
  const map = childrenMap();
  const out = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop();
    out.push(pid);
    for (const c of map.get(pid) ?? []) stack.push(c);
  }
  return out;
}

export class CpuSampler {
  /**
   * `classify(pid, cmdline, tid, comm)` names the group a thread's CPU goes to (or undefined: not
   * counted). Called once per thread.
   */
  constructor(rootPid, classify, { intervalMs = 100, rescanMs = 1000 } = {}) {
    this.rootPid = rootPid;
    this.classify = classify;
    this.intervalMs = intervalMs;
    this.rescanMs = rescanMs;
    this.threads = new Map(); // "pid/tid" -> { group, last }
    this.pids = [];
    this.cmdlines = new Map();
    this.totals = new Map(); // group -> ns so far
    this.series = []; // { t (epoch ms), totals: Map copy }
    this.lastScan = 0;
    this.timer = undefined;
  }

  start() {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref?.();
  }

  stop() {
    clearInterval(this.timer);
    this.sample();
  }

  sample() {
    const now = Date.now();
    if (now - this.lastScan >= this.rescanMs) {
      this.pids = descendants(this.rootPid);
      this.lastScan = now;
    }
    for (const pid of this.pids) {
      let cmdline = this.cmdlines.get(pid);
      if (cmdline === undefined) {
        cmdline = (read(`/proc/${pid}/cmdline`) ?? '').replace(/\0/g, ' ').trim();
        this.cmdlines.set(pid, cmdline);
      }
      let tids;
      try {
        tids = readdirSync(`/proc/${pid}/task`);
      } catch {
        continue;
      }
      for (const tid of tids) {
        const key = `${pid}/${tid}`;
        let thread = this.threads.get(key);
        if (!thread) {
          const comm = (read(`/proc/${pid}/task/${tid}/comm`) ?? '').trim();
          thread = { group: this.classify(pid, cmdline, Number(tid), comm), last: 0, pid, comm };
          this.threads.set(key, thread);
        }
        if (!thread.group) continue;
        const schedstat = read(`/proc/${pid}/task/${tid}/schedstat`);
        if (!schedstat) continue;
        const ns = Number(schedstat.split(' ')[0]);
        if (ns > thread.last) {
          this.totals.set(thread.group, (this.totals.get(thread.group) ?? 0) + (ns - thread.last));
          thread.last = ns;
        }
      }
    }
    this.series.push({ t: now, totals: new Map(this.totals) });
  }

  /** The threads that used the most CPU since start: { group, pid, comm, ms }. */
  topThreads(count) {
    return [...this.threads.values()].filter((t) => t.group && t.last > 0)
      .sort((a, b) => b.last - a.last).slice(0, count).map((t) => ({ group: t.group, pid: t.pid, comm: t.comm, ms: t.last / 1e6 }));
  }

  /** ms of CPU per group between two epoch times (linear between samples). */
  cpuBetween(t0, t1) {
    const a = this.at(t0);
    const b = this.at(t1);
    const out = {};
    for (const [group, ns] of b) out[group] = Math.max(0, (ns - (a.get(group) ?? 0)) / 1e6);
    return out;
  }

  at(t) {
    const s = this.series;
    if (!s.length) return new Map();
    if (t <= s[0].t) return s[0].totals;
    if (t >= s.at(-1).t) return s.at(-1).totals;
    let lo = 0;
    let hi = s.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (s[mid].t <= t) lo = mid;
      else hi = mid;
    }
    const f = (t - s[lo].t) / (s[hi].t - s[lo].t || 1);
    const out = new Map();
    for (const [group, ns] of s[hi].totals) {
      const before = s[lo].totals.get(group) ?? 0;
      out.set(group, before + f * (ns - before));
    }
    return out;
  }
}
