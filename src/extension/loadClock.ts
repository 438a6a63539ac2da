// Imported first by activate.ts: the time the bundle started evaluating, to measure module load
// apart from activate() itself.
export const bundleStart = performance.now();
