// A file holding several models' columns side by side (Prob_LogReg, Pred_LogReg, Prob_SVM, ...):
// the "Model" the report scores, and "Compare models", which opens the comparison of all of them.
import type { Report } from '../../src/core/types';
import { onChoice } from '../common/choice';
import { el } from '../common/dom';
import { post } from '../common/vscodeApi';

/** "Model" and "Compare models", shown when the report's file holds two models or more. */
export function modelControls(report: Report): HTMLElement | null {
  const models = report.models;
  if (!models || models.length < 2) return null;
  const select = el('select', { attrs: { id: 'model-select', 'aria-label': 'Model' } });
  for (const m of models) select.appendChild(el('option', { text: m, attrs: { value: m } }));
  select.value = report.model ?? models[0];
  onChoice(select, (model) => post({ type: 'chooseModel', model }));
  return el('div', { className: 'group-controls', attrs: { id: 'model-controls' } }, [
    el('label', { className: 'control' }, [el('span', { text: `Model (${models.length} in this file)` }), select]),
    el('button', {
      className: 'link-button', text: `Compare models (${models.length})`,
      attrs: { type: 'button', id: 'compare-models' }, onClick: () => post({ type: 'compareModels' }),
    }),
  ]);
}
