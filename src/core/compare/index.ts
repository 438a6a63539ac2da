// Comparing runs and leaderboards: the public API (pure, no fs: usable in a worker). Reading
// files for them is ../compareFiles.ts (comparePaths) and ../boardFiles.ts (boardPaths).
export { compareRuns, compareRunsDetailed, compareGroups, CompareError, DEFAULT_COMPARE_RESAMPLES } from './compare';
export type {
  Comparison, ComparisonDetail, CompareGroupInput, CompareOptions, CompareRunInput, CompareTest, MetricComparison, RunInfo, Alignment,
} from './compare';
export type { AgreementCounts, CloserCounts } from './agreement';
export { alignRuns } from './align';
export { buildBoard, pivotPrompting, aggregatedResultsEntries, folktextsNaming, isAggregatedResults } from './board';
export type { Board, BoardEntry, BoardRow, BoardOptions, Prompting } from './board';
export { betterDirection, improvement } from './direction';
export { delongTest, placements } from './delong';
export { mcnemarExact } from './mcnemar';
export { holm } from './holm';
export { erfc, normalTwoSidedP } from './erfc';
export { pairedBootstrap } from './pairedBootstrap';
export { modelColumns } from './multiModel';
