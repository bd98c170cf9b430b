// Closed-schema validation of request bodies: wrong types, missing fields and unknown fields
// all give 400 VALIDATION_FAILED naming the field.
import { badRequest, quoted } from './http';

export type FieldType = 'string' | 'integer' | 'boolean' | 'object' | 'array';

export interface FieldSpec {
  type: FieldType;
  required?: boolean;
  enum?: readonly string[];
  /** For strings: a predicate and the message when it fails. */
  check?: (v: never) => string | undefined;
}

export type Schema = Record<string, FieldSpec>;

export function validateBody(body: unknown, schema: Schema, where = 'body'): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest(`The ${where} must be a JSON object.`);
  }
  const obj = body as Record<string, unknown>;
  // Own properties only, on both sides: "__proto__" or "constructor" in a body is an unknown
  // field, not something Object.prototype answers for.
  for (const k of Object.keys(obj)) {
    if (!Object.hasOwn(schema, k)) throw badRequest(`Unknown field ${quoted(k)} in the ${where}.`);
  }
  for (const [k, spec] of Object.entries(schema)) {
    const v = Object.hasOwn(obj, k) ? obj[k] : undefined;
    if (v === undefined) {
      if (spec.required) throw badRequest(`Field "${k}" is required.`);
      continue;
    }
    if (!hasType(v, spec.type)) throw badRequest(`Field "${k}" must be ${article(spec.type)}.`);
    if (spec.enum && !spec.enum.includes(v as string)) {
      throw badRequest(`Field "${k}" must be one of: ${spec.enum.join(', ')}.`);
    }
    if (spec.check) {
      const msg = spec.check(v as never);
      if (msg) throw badRequest(`Field "${k}" ${msg}`);
    }
  }
  return obj;
}

function hasType(v: unknown, t: FieldType): boolean {
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isSafeInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'array':
      return Array.isArray(v);
  }
}

function article(t: FieldType): string {
  return t === 'integer' || t === 'object' || t === 'array' ? `an ${t}` : `a ${t}`;
}

const NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}[A-Za-z0-9_])?$/;

/** Database, user and organization names: letters, digits, `-`, `_`; not starting or ending with `-`. */
export function checkName(v: string): string | undefined {
  return NAME.test(v) ? undefined : 'must be 1-64 letters, digits, "-" or "_", not starting or ending with "-".';
}

export function isValidName(v: string): boolean {
  return NAME.test(v);
}

const BRANCH = /^(?![-/.])(?!.*\.\.)(?!.*\/\/)(?!.*[/.]$)(?!.*\.lock$)[A-Za-z0-9._/-]{1,200}$/;

export function checkBranchName(v: string): string | undefined {
  if (/^[0-9a-v]{32}$/.test(v)) return 'must not look like a commit hash (32 characters of 0-9a-v).';
  return BRANCH.test(v)
    ? undefined
    : 'must be 1-200 letters, digits, ".", "_", "-" or "/", not starting with "-", "/" or "." and without "..".';
}

export function positiveIntParam(name: string, raw: string | null | undefined): number | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (!/^[0-9]{1,12}$/.test(raw) || Number(raw) <= 0) throw badRequest(`Parameter "${name}" must be a positive integer.`);
  return Number(raw);
}
