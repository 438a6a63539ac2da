// A bank-churn-shaped table (an ID, two categorical columns, a numeric one, the label and
// P(churn)) written twice, as CSV and as Parquet (hyparquet-writer), for the tests of a Parquet
// table's own columns (issue 28.1): the unit tests compare the two, the e2e test opens the Parquet.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { mulberry32 as rng } from '../../../src/core/metrics/bootstrap';

export const GEOGRAPHY = ['France', 'Spain', 'Germany'];
export const BANK_CHURN_COLUMNS = ['customer_id', 'geography', 'gender', 'age', 'actual_churn', 'churn_probability'];

export function writeBankChurn(dir: string, n: number): { csv: string; parquet: string } {
  const random = rng(28);
  const rows = Array.from({ length: n }, (_, i) => {
    const geography = GEOGRAPHY[Math.floor(random() * 3)];
    const gender = random() < 0.5 ? 'Female' : 'Male';
    const age = 18 + Math.floor(random() * 60);
    const churned = random() < (geography === 'Germany' ? 0.35 : 0.18) ? 1 : 0;
    const p = Number(Math.min(1, Math.max(0, (churned ? 0.62 : 0.3) + (random() - 0.5) * 0.7)).toFixed(4));
    return { id: `C${String(i).padStart(5, '0')}`, geography, gender, age, churned, p };
  });
  const csv = join(dir, 'bank_churn.csv');
  const parquet = join(dir, 'bank_churn.parquet');
  writeFileSync(csv, `${BANK_CHURN_COLUMNS.join(',')}\n` + rows.map((r) => `${r.id},${r.geography},${r.gender},${r.age},${r.churned},${r.p}`).join('\n') + '\n');
  const buf = parquetWriteBuffer({
    columnData: [
      { name: 'customer_id', data: rows.map((r) => r.id), type: 'STRING' },
      { name: 'geography', data: rows.map((r) => r.geography), type: 'STRING' },
      { name: 'gender', data: rows.map((r) => r.gender), type: 'STRING' },
      { name: 'age', data: rows.map((r) => r.age), type: 'INT32' },
      { name: 'actual_churn', data: rows.map((r) => r.churned), type: 'INT32' },
      { name: 'churn_probability', data: rows.map((r) => r.p), type: 'DOUBLE' },
    ],
    rowGroupSize: 700,
  });
  writeFileSync(parquet, new Uint8Array(buf));
  return { csv, parquet };
}
