// Public entry of the metric core (no vscode import anywhere under src/core).
export * from './types';
export { scorePath, scoreFile, scoreInput, parseInput, summarize, discoverPredictionFiles, readHead, DEFAULT_MAX_FILE_BYTES } from './score';
export { ScoreCancelledError, sizeText } from './formats/progress';
export type { ScoreResult } from './score';
export { buildReport, resolveOptions, disagreeingReported } from './report';
export { detectFormat } from './formats/detect';
export { decideFile, isDataFile, unscoredReason } from './unscored';
export { fileInput, textInput } from './formats/context';
export type { CompanionReader, FileInput, FormatContext } from './formats/context';
export { nodeCompanionReader, walkFiles, readFileBytes } from './io';
export { scorePathAsync, scoreFileAsync } from './scoreAsync';
export { tableRolesOfFile, tableRolesOfText } from './tableRoles';
export type { TableRoles, ColumnRoles, ColumnInfo, ColumnRole, MapField } from './tableRoles';
export { availableCharts, chartUnavailableMessage, CHART_NAMES } from './availableCharts';
export type { ChartAvailability, ChartName } from './availableCharts';
export { parsePythonJson, nonFiniteText } from './formats/pythonJson';
