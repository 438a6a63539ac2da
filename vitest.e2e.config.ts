// End-to-end tests: test/e2e/**/*.e2e.ts against a real VS Code (code-server + Chromium), see
// test/vscode/README.md. Run: npx vitest run --config vitest.e2e.config.ts
// One file at a time, one test at a time: each file starts its own code-server + Chromium, and
// the machine has 2 cores.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/e2e/globalSetup.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    sequence: { concurrent: false },
    testTimeout: 180_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
    retry: 0,
  },
});
