// The metric core's pure functions over typed arrays (no I/O, no vscode), one module per family.
export * from './sort';
export * from './ranking';
export * from './scoring';
export * from './regression';
export * from './calibration';
export * from './classification';
export * from './bootstrap';
export * from './binary';
export * from './resample';
