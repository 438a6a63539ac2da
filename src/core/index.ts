// Public entry of the metric core (no vscode import anywhere under src/core).
// scorePath / scoreInput / detectFormat / summarize are implemented in report.ts and detect.ts.
export * from './types';
