// mulberry32, the seeded PRNG of the generators (examples, benchmark data). The same function as
// src/core/metrics/bootstrap.ts's, for plain-JS scripts that run without a TypeScript build.
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
