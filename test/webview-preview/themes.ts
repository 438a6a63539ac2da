// Approximations of the --vscode-* variables VS Code injects into a webview for Dark Modern, Light
// Modern and the two high-contrast themes: enough to see the report the way VS Code shows it before
// the real workbench runs (the e2e screenshots use the real ones).

export type PreviewTheme = 'dark' | 'light' | 'hc' | 'hcl';

const common = {
  'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
  'font-size': '13px',
  'font-weight': 'normal',
  'editor-font-family': '"Droid Sans Mono", "monospace", monospace',
  'editor-font-size': '13px',
};

export const THEMES: Record<PreviewTheme, { bodyClass: string; vars: Record<string, string> }> = {
  dark: {
    bodyClass: 'vscode-dark',
    vars: {
      ...common,
      'foreground': '#cccccc', 'descriptionForeground': '#9d9d9d', 'editor-background': '#1f1f1f',
      'widget-border': '#313131', 'panel-border': '#2b2b2b', 'focusBorder': '#0078d4',
      'button-background': '#0078d4', 'button-foreground': '#ffffff', 'button-hoverBackground': '#026ec1', 'button-border': '#ffffff12',
      'button-secondaryBackground': '#313131', 'button-secondaryForeground': '#cccccc', 'button-secondaryHoverBackground': '#3c3c3c',
      'dropdown-background': '#313131', 'dropdown-border': '#3c3c3c', 'dropdown-foreground': '#cccccc',
      'badge-background': '#616161', 'badge-foreground': '#f8f8f8',
      'list-hoverBackground': '#2a2d2e', 'list-activeSelectionBackground': '#04395e', 'list-activeSelectionForeground': '#ffffff',
      'textLink-foreground': '#4daafc', 'textLink-activeForeground': '#4daafc', 'editorWidget-background': '#202020',
      'textBlockQuote-background': '#2b2b2b', 'textBlockQuote-border': '#616161',
      'charts-foreground': '#cccccc', 'charts-lines': 'rgba(204, 204, 204, 0.5)', 'charts-red': '#f14c4c', 'charts-blue': '#59a4f9',
      'charts-yellow': '#cca700', 'charts-orange': 'rgba(234, 92, 0, 0.33)', 'charts-green': '#89d185', 'charts-purple': '#b180d7',
      'errorForeground': '#f85149', 'editorWarning-foreground': '#cca700', 'testing-iconPassed': '#73c991', 'testing-iconFailed': '#f14c4c',
      'progressBar-background': '#0078d4',
    },
  },
  light: {
    bodyClass: 'vscode-light',
    vars: {
      ...common,
      'foreground': '#3b3b3b', 'descriptionForeground': '#3b3b3b', 'editor-background': '#ffffff',
      'widget-border': '#e5e5e5', 'panel-border': '#e5e5e5', 'focusBorder': '#005fb8',
      'button-background': '#005fb8', 'button-foreground': '#ffffff', 'button-hoverBackground': '#0258a8', 'button-border': '#0000001a',
      'button-secondaryBackground': '#e5e5e5', 'button-secondaryForeground': '#3b3b3b', 'button-secondaryHoverBackground': '#cccccc',
      'dropdown-background': '#ffffff', 'dropdown-border': '#cecece', 'dropdown-foreground': '#3b3b3b',
      'badge-background': '#cccccc', 'badge-foreground': '#3b3b3b',
      'list-hoverBackground': '#f2f2f2', 'list-activeSelectionBackground': '#e8e8e8', 'list-activeSelectionForeground': '#000000',
      'textLink-foreground': '#005fb8', 'textLink-activeForeground': '#005fb8', 'editorWidget-background': '#f8f8f8',
      'textBlockQuote-background': '#f8f8f8', 'textBlockQuote-border': '#e5e5e5',
      'charts-foreground': '#616161', 'charts-lines': 'rgba(97, 97, 97, 0.5)', 'charts-red': '#e51400', 'charts-blue': '#1a85ff',
      'charts-yellow': '#bf8803', 'charts-orange': '#d18616', 'charts-green': '#388a34', 'charts-purple': '#652d90',
      'errorForeground': '#f85149', 'editorWarning-foreground': '#bf8803', 'testing-iconPassed': '#388a34', 'testing-iconFailed': '#f14c4c',
      'progressBar-background': '#005fb8',
    },
  },
  hc: {
    bodyClass: 'vscode-high-contrast',
    vars: {
      ...common,
      'foreground': '#ffffff', 'descriptionForeground': '#ffffffb3', 'editor-background': '#000000',
      'contrastBorder': '#6fc3df', 'contrastActiveBorder': '#f38518', 'focusBorder': '#f38518',
      'button-background': '#000000', 'button-foreground': '#ffffff', 'button-border': '#6fc3df',
      'button-secondaryBackground': '#000000', 'button-secondaryForeground': '#ffffff',
      'dropdown-background': '#000000', 'dropdown-border': '#6fc3df', 'dropdown-foreground': '#ffffff',
      'badge-background': '#000000', 'badge-foreground': '#ffffff',
      'list-activeSelectionBackground': '#000000', 'list-activeSelectionForeground': '#ffffff',
      'textLink-foreground': '#21a6ff', 'textLink-activeForeground': '#21a6ff', 'editorWidget-background': '#0c141f',
      'textBlockQuote-background': '#000000', 'textBlockQuote-border': '#ffffff',
      'charts-foreground': '#ffffff', 'charts-lines': 'rgba(255, 255, 255, 0.5)', 'charts-red': '#f14c4c', 'charts-blue': '#3794ff',
      'charts-yellow': '#ffd700', 'charts-orange': '#d18616', 'charts-green': '#89d185', 'charts-purple': '#b180d7',
      'errorForeground': '#f48771', 'editorWarning-foreground': '#ffd700', 'testing-iconPassed': '#73c991', 'testing-iconFailed': '#f14c4c',
      'progressBar-background': '#6fc3df',
    },
  },
  hcl: {
    bodyClass: 'vscode-high-contrast vscode-high-contrast-light',
    vars: {
      ...common,
      'foreground': '#292929', 'descriptionForeground': '#292929', 'editor-background': '#ffffff',
      'contrastBorder': '#0f4a85', 'contrastActiveBorder': '#006bbd', 'focusBorder': '#006bbd',
      'button-background': '#0f4a85', 'button-foreground': '#ffffff', 'button-border': '#0f4a85',
      'button-secondaryBackground': '#ffffff', 'button-secondaryForeground': '#292929',
      'dropdown-background': '#ffffff', 'dropdown-border': '#0f4a85', 'dropdown-foreground': '#292929',
      'badge-background': '#0f4a85', 'badge-foreground': '#ffffff',
      'textLink-foreground': '#0f4a85', 'editorWidget-background': '#ffffff',
      'textBlockQuote-background': '#f2f2f2', 'textBlockQuote-border': '#292929',
      'charts-foreground': '#292929', 'charts-lines': 'rgba(41, 41, 41, 0.5)', 'charts-red': '#b5200d', 'charts-blue': '#0f4a85',
      'charts-yellow': '#895503', 'charts-orange': '#8f4700', 'charts-green': '#2d883e', 'charts-purple': '#652d90',
      'errorForeground': '#b5200d', 'editorWarning-foreground': '#895503', 'testing-iconPassed': '#2d883e', 'testing-iconFailed': '#b5200d',
    },
  },
};

/** Applies a theme the way VS Code does: variables on <html>'s style, the kind as the body's class. */
export function applyTheme(theme: PreviewTheme, doc: Document = document): void {
  const { bodyClass, vars } = THEMES[theme];
  const style = doc.documentElement.style;
  for (let k = style.length - 1; k >= 0; k--) {
    const name = style.item(k);
    if (name.startsWith('--vscode-')) style.removeProperty(name);
  }
  for (const [name, value] of Object.entries(vars)) style.setProperty(`--vscode-${name}`, value);
  doc.body.className = bodyClass;
  doc.body.dataset.vscodeThemeKind = bodyClass.split(' ').pop()!;
}
