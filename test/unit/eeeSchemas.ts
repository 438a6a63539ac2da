// The published Every Eval Ever 0.3.0 schemas (test/fixtures/real/eee/schemas), compiled once with
// ajv for the tests that validate what `eval-lens convert --to eee` writes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { REAL } from './realData';

const ajv = new Ajv({ strict: false, allErrors: true });
const schema = (name: string) => JSON.parse(readFileSync(join(REAL, 'eee', 'schemas', name), 'utf8'));
export const validAggregate = ajv.compile(schema('eval.schema.json'));
export const validInstance = ajv.compile(schema('instance_level_eval.schema.json'));

/** Throws with ajv's reasons when `value` breaks the schema. */
export function validate(check: ValidateFunction, value: unknown, where: string): void {
  if (!check(value)) throw new Error(`${where}: ${ajv.errorsText(check.errors)}`);
}
