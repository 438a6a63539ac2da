// "Map columns…" (evalLens.mapColumns): which column of a table is the gold label, the score and
// the prediction, picked from the column roles the core reads (the same roles that write the CLI's
// --map hint: src/core/tableRoles.ts, asked in the worker so Parquet is read too), each column with
// the role it was given and why. The choice is remembered where the user sees and edits it: the
// workspace setting evalLens.columnMappings (path -> {field: column}), written in one update, and
// every scorer (discovery, tree, CodeLens, the report) reads it through settings.ts's mappingFor.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ColumnMapping } from '../../core/types';
import type { ColumnRole, TableRoles } from '../../core/tableRoles';
import { mappingFor, mappingKey, SECTION, type EvalLensSettings } from '../settings';
import type { WorkerPool } from '../worker/workerPool';

/** The fields the pick asks for, in order (the CLI's --map fields of a prediction table). */
const FIELDS = [
  { field: 'label', what: 'the gold label (the true answer)', optional: false },
  { field: 'score', what: 'the score or P(positive)', optional: true },
  { field: 'pred', what: 'the predicted label', optional: true },
] as const;
type PickField = (typeof FIELDS)[number]['field'];

const ROLE_WORDS: Record<ColumnRole, string> = {
  id: 'ID', gold: 'gold label', pred: 'predicted label', score: 'score / P(positive)', classProb: 'probability of one class',
  confidence: 'confidence', correct: 'correctness', modelScore: 'a model\'s score', modelPred: 'a model\'s prediction',
  group: 'group or metadata', text: 'text', metric: 'a metric', unknown: 'no role recognised',
};

export interface ColumnPickItem extends vscode.QuickPickItem {
  /** The column, or null for "none" / "no gold label in this file". */
  column: string | null;
}

/** The pick on screen, for tests: its field, title, items, and a way to make one of them active. */
export interface ColumnPickShown {
  field: PickField;
  title: string;
  placeholder: string;
  items: ColumnPickItem[];
  /** Makes the item with this label the active one (then accept it with workbench.action.acceptSelectedQuickOpenItem). */
  activate(label: string): void;
}

export interface MapColumnsDeps {
  pool: WorkerPool;
  settings: () => EvalLensSettings;
  /** Each pick as it is shown (visible true) and hidden (false), for tests. */
  onPick?: (shown: ColumnPickShown, visible: boolean) => void;
}

/** The table's roles, read in the worker with the mapping remembered so far. */
export async function rolesOf(pool: WorkerPool, file: string, mapping: ColumnMapping | undefined, maxBytes: number): Promise<TableRoles> {
  const reply = await pool.run({ type: 'roles', path: file, mapping, maxBytes }, { priority: 'interactive' });
  if (reply.type === 'roles') return reply.roles;
  throw new Error(reply.type === 'failed' ? reply.message : `unexpected reply ${reply.type}`);
}

/** The items of one field's pick: the proposed column first, each with its role and why; "none" for an optional field. */
export function pickItems(roles: TableRoles, field: PickField, optional: boolean): ColumnPickItem[] {
  const choice = roles.choices.find((c) => c.field === field);
  const info = (column: string) => roles.roles.columns.find((c) => c.column === column);
  const items: ColumnPickItem[] = (choice?.columns ?? []).map((column) => {
    const c = info(column);
    const role = c ? `${ROLE_WORDS[c.role]}${c.className !== undefined ? ` "${c.className}"` : ''}${c.model ? ` (${c.model})` : ''}` : '';
    return {
      label: column,
      description: [choice?.proposed === column ? 'proposed' : '', role].filter(Boolean).join(' · '),
      detail: c?.why,
      column,
    };
  });
  if (optional) {
    const none: ColumnPickItem = { label: 'None', description: 'no column of the file holds it', column: null };
    if (choice?.proposed === undefined) items.unshift(none);
    else items.push(none);
  } else if (choice?.proposed === undefined) {
    // No gold label found: say so, and let the user stop here rather than pick a column that is not one.
    items.push({ label: 'None of these', description: 'the file has no gold label column', column: null });
  }
  return items;
}

function pickOne(shown: Omit<ColumnPickShown, 'activate'>, step: number, steps: number, onPick?: MapColumnsDeps['onPick']): Promise<ColumnPickItem | undefined> {
  const qp = vscode.window.createQuickPick<ColumnPickItem>();
  qp.title = shown.title;
  qp.placeholder = shown.placeholder;
  qp.items = shown.items;
  qp.step = step;
  qp.totalSteps = steps;
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.ignoreFocusOut = true;
  if (shown.items.length) qp.activeItems = [shown.items[0]];
  const info: ColumnPickShown = {
    ...shown,
    activate: (label) => {
      const item = qp.items.find((i) => i.label === label);
      if (!item) throw new Error(`no item "${label}" in the pick of ${shown.field}: ${qp.items.map((i) => i.label).join(', ')}`);
      qp.activeItems = [item];
    },
  };
  return new Promise((resolve) => {
    let done = false;
    qp.onDidAccept(() => {
      done = true;
      // The active item as this side knows it: the workbench reports every move (keys, mouse,
      // filter) before it accepts, and an item made active from here counts at once.
      resolve(qp.activeItems[0] ?? qp.selectedItems[0]);
      qp.hide();
    });
    qp.onDidHide(() => {
      if (!done) resolve(undefined);
      onPick?.(info, false);
      qp.dispose();
    });
    qp.show();
    onPick?.(info, true);
  });
}

/**
 * Asks for the gold label, the score and the prediction of `file` and remembers them in
 * evalLens.columnMappings. Resolves with the mapping written, or undefined when the user stopped
 * (or the file's columns cannot be read: said in a message).
 */
export async function mapColumns(deps: MapColumnsDeps, file: string): Promise<ColumnMapping | undefined> {
  const s = deps.settings();
  const name = path.basename(file);
  let roles: TableRoles;
  try {
    roles = await rolesOf(deps.pool, file, mappingFor(file, s), s.maxFileBytes);
  } catch (e) {
    void vscode.window.showErrorMessage(`Eval Lens: the columns of ${name} could not be read: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  if (!roles.names.length) {
    void vscode.window.showInformationMessage(`Eval Lens: ${name} has no columns to map (it is not a table: CSV, TSV, JSON Lines or Parquet).`);
    return undefined;
  }
  const mapping: ColumnMapping = {};
  for (let k = 0; k < FIELDS.length; k++) {
    const { field, what, optional } = FIELDS[k];
    const items = pickItems(roles, field, optional);
    const proposed = roles.choices.find((c) => c.field === field)?.proposed;
    const placeholder = field === 'label' && (roles.message || proposed === undefined)
      ? (roles.message ?? 'No column is named like a gold label: pick the one holding the true answers.')
      : `The column holding ${what}${proposed !== undefined ? ` (proposed: ${proposed})` : ''}`;
    const picked = await pickOne({ field, title: `Map the columns of ${name}: ${what}`, placeholder, items }, k + 1, FIELDS.length, deps.onPick);
    if (!picked) return undefined;
    if (picked.column === null) {
      if (!optional) {
        void vscode.window.showInformationMessage(`Eval Lens: ${name} cannot be scored without a gold label. ${roles.message ?? ''}`.trim());
        return undefined;
      }
      continue;
    }
    mapping[field] = picked.column;
  }
  await rememberMapping(file, mapping);
  return mapping;
}

/** The fields of evalLens.columnMappings' entries (package.json's schema), as a mapping argument may give them. */
const MAPPING_FIELDS: readonly string[] = ['label', 'score', 'pred', 'confidence', 'correct', 'id'];

/**
 * The mapping given as the command's second argument, or undefined when that argument is no mapping:
 * at least one field naming a column, and nothing but fields. An editor title button calls the
 * command with (uri, {groupId, editorIndex}); that object, once taken for an empty mapping, wrote {}
 * over the user's setting.
 */
export function givenMapping(given: unknown): ColumnMapping | undefined {
  if (!given || typeof given !== 'object' || Array.isArray(given)) return undefined;
  const entries = Object.entries(given);
  if (!entries.length || !entries.every(([k, v]) => MAPPING_FIELDS.includes(k) && (typeof v === 'string' || v === undefined))) return undefined;
  const named = entries.filter(([, v]) => typeof v === 'string' && v !== '');
  return named.length ? (Object.fromEntries(named) as ColumnMapping) : undefined;
}

/**
 * Writes the mapping under the file's workspace-relative path, in one settings update (the
 * workspace's settings.json, where the user sees, edits and undoes it; the user settings with the
 * absolute path when no folder is open).
 */
export async function rememberMapping(file: string, mapping: ColumnMapping): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION, vscode.Uri.file(file));
  const inWorkspace = !!vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file));
  const target = inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const inspected = config.inspect<Record<string, ColumnMapping>>('columnMappings');
  const current = (inWorkspace ? inspected?.workspaceValue : inspected?.globalValue) ?? {};
  const key = inWorkspace ? mappingKey(file) : file.replace(/\\/g, '/');
  await config.update('columnMappings', { ...current, [key]: mapping }, target);
}
