import Ajv2020 from 'ajv/dist/2020';
import schema from '../../lambda/register/records.schema.json';

// The record schema, lambda/register/records.schema.json, compiled once for the tests that check what is written.
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addSchema(schema);

/** Ajv's complaints about `value` as the record `def` of the schema; empty when it is one. */
export function recordProblems(def: 'ringRecord' | 'mountRecord', value: unknown): string[] {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${def}`)!;
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
