// The panel draws the shared chart definitions (src/charts) on its canvases.
export { applyDefaults, Chart, diagonalDataset, unitAxis } from '../../src/charts/common';
