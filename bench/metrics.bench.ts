// Timing of the metric hot path on 1,000,000 binary rows (not a test). Run:
//   npx esbuild bench/metrics.bench.ts --bundle --platform=node --outfile=/tmp/metrics.bench.js && node /tmp/metrics.bench.js [n]
import { binaryMetrics } from '../src/core/metrics/binary';
import { mulberry32 } from '../src/core/metrics/bootstrap';
import { binIndexEqualCount, binIndexEqualWidth } from '../src/core/metrics/calibration';
import { stableArgsort } from '../src/core/metrics/sort';

const n = Number(process.argv[2] ?? 1_000_000);
const rand = mulberry32(1);
// Two populations: full-precision risk scores, and 3-decimal ones (many ties), as folktexts and
// LLM-verbalised outputs give.
const datasets: Record<string, Float64Array> = {
  continuous: Float64Array.from({ length: n }, () => rand()),
  decimals3: Float64Array.from({ length: n }, () => Math.round(rand() * 1000) / 1000),
};

function time(label: string, reps: number, f: () => unknown): void {
  const ms: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < reps; r++) {
    const c = process.cpuUsage();
    const t = performance.now();
    f();
    ms.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  const med = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  // CPU time as well as wall time: on a shared machine other processes inflate the wall clock.
  console.log(
    `${label.padEnd(40)} wall min ${Math.min(...ms).toFixed(1)} median ${med(ms).toFixed(1)} ms | ` +
      `cpu median ${med(cpu).toFixed(1)} ms | first call ${ms[0].toFixed(1)} ms`,
  );
}

for (const [name, score] of Object.entries(datasets)) {
  const label = Uint8Array.from(score, (s) => (rand() < s ? 1 : 0));
  const opts = { bins: 10, threshold: 0.5, hmrBeta: 1 };
  console.log(`n = ${n}, ${name}`);
  time('stableArgsort', 11, () => stableArgsort(score));
  time('binaryMetrics (everything, one sort)', 11, () => binaryMetrics(score, label, opts));
  const { order } = binaryMetrics(score, label, opts);
  time('binIndexEqualWidth + binIndexEqualCount', 11, () => {
    binIndexEqualWidth(score, 10);
    binIndexEqualCount(score, 10, order);
  });
}
