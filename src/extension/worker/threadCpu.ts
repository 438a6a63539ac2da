// CPU time of the calling thread, for the timelines the extension logs (EVAL_LENS_DEBUG) and the
// benchmarks read: on a shared machine wall time is mostly waiting for a core, CPU time is what a
// step costs. Node 23.9+ (code-server's Node 24) has process.threadCpuUsage(); elsewhere Linux's
// /proc/thread-self/stat gives the same in clock ticks (10 ms); else NaN.
import { readFileSync } from 'node:fs';

type ThreadCpuUsage = () => { user: number; system: number };

/** ms of CPU (user + system) this thread has used so far. */
export function threadCpuMs(): number {
  const usage = (process as unknown as { threadCpuUsage?: ThreadCpuUsage }).threadCpuUsage;
  if (typeof usage === 'function') {
    const u = usage.call(process);
    return (u.user + u.system) / 1000;
  }
  try {
    // Fields after the command name (which may hold spaces, so split after its closing paren):
    // utime and stime are the 12th and 13th of them, in ticks of 1/100 s on Linux.
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** One step of a job: wall and CPU ms of the thread that ran it. */
export interface StepTime {
  step: string;
  ms: number;
  cpuMs: number;
}

/** Times the steps of one job, one after another, on the calling thread. */
export class StepClock {
  readonly steps: StepTime[] = [];
  private wall = performance.now();
  private cpu = threadCpuMs();

  /** Ends the step in progress as `step` and starts the next. */
  lap(step: string): void {
    const wall = performance.now();
    const cpu = threadCpuMs();
    this.steps.push({ step, ms: wall - this.wall, cpuMs: cpu - this.cpu });
    this.wall = wall;
    this.cpu = cpu;
  }
}

/** "read+parse 120 ms (CPU 110), report 90 ms (CPU 88)" */
export function stepsText(steps: readonly StepTime[]): string {
  return steps.map((s) => `${s.step} ${Math.round(s.ms)} ms (CPU ${Number.isNaN(s.cpuMs) ? '?' : Math.round(s.cpuMs)})`).join(', ');
}
