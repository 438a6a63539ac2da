// The "Map columns…" pick and the CLI's --map hint come from one set of roles (core/tableRoles.ts):
// a gold label the hint proposes ("churned may be it") is the one the pick proposes first, quoted
// names included; a table without a gold column never offers a prediction or score as the gold.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableRolesOfFile } from '../../../src/core/tableRoles';

const ROLES = join(__dirname, '..', '..', 'fixtures', 'roles');
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-pick-'));

/** The churn table with its gold column renamed, so no name says it is the gold. */
function renamed(gold: string): string {
  const file = join(dir, `${gold.replace(/\W/g, '_')}.csv`);
  const text = readFileSync(join(ROLES, 'churn.csv'), 'utf8');
  writeFileSync(file, text.replace(/^([^\n]*)actual_churn/, `$1${/[ ,']/.test(gold) ? `"${gold}"` : gold}`));
  return file;
}

describe('the pick proposes what the --map hint proposes', () => {
  it.each([
    ['churned', '--map label=churned --map score=churn_probability'],
    ["churned (y/n) isn't", "--map label='churned (y/n) isn'\\''t' --map score=churn_probability"],
  ])('%s', async (gold, hint) => {
    const roles = await tableRolesOfFile(renamed(gold));
    expect(roles.message).toContain(`To score it, write: ${hint}`);
    const label = roles.choices.find((c) => c.field === 'label')!;
    expect(label.proposed).toBe(gold);
    expect(label.columns[0]).toBe(gold);
    expect(label.columns).not.toContain('predicted_class');
    expect(label.columns).not.toContain('churn_probability');
    expect(roles.choices.find((c) => c.field === 'score')!.proposed).toBe('churn_probability');
  });

  it('a table without a gold label (Ludwig\'s output): none proposed, no prediction or score offered', async () => {
    const roles = await tableRolesOfFile(join(ROLES, 'ludwig.parquet'));
    expect(roles.message).toMatch(/^No column holds the gold label/);
    const label = roles.choices.find((c) => c.field === 'label')!;
    expect(label.proposed).toBeUndefined();
    expect(label.columns).toEqual(['review_content']);
  });
});
