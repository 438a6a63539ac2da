// The panel draws the shared chart definitions (src/charts) on its canvases.
export { applyDefaults, backgroundPlugin, Chart } from '../../../src/charts/common';
