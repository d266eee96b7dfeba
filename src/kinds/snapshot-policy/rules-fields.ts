import type { Diagnostics } from '../../core/diagnostics.js';
import { assertNever } from '../../core/plan.js';
import { didYouMean } from '../../core/suggest.js';
import { fieldsOf, isStorageType, snapshotFieldSpec, STORAGE_TYPES, type SnapshotFieldSpec } from './fields.js';
import { isGiven, reportAt } from './report.js';
import type { SnapshotPolicyDocument } from './types.js';
import { boolOf, countOf, parseBytesDetailed, readDuration } from '../../values/index.js';

/** Same wording as the schema's x-message, so a value is described the same way at either stage. */
const DURATION_MESSAGE = 'must be a duration (e.g. 30m, 24h) or a whole number of seconds';
const BYTES_MESSAGE = 'must be a size in bytes: a whole number, or a number with a unit such as 10GiB or 500MB';

/**
 * Each config value (references resolved) against its field's form and the storage_type, and
 * fields that belong to another storage type. Any shape (KindModule.checkValues).
 */
export function checkConfigValues(doc: SnapshotPolicyDocument, diags: Diagnostics): void {
  const config = doc.data.config as SnapshotPolicyDocument['data']['config'] | undefined;
  if (config === undefined) return;
  const type = config['storage_type'];
  for (const [name, value] of Object.entries(config)) {
    const spec = snapshotFieldSpec(name);
    if (!spec) continue; // the schema refused it already
    for (const problem of valueProblems(spec, value)) reportAt(diags, doc, ['config', name], problem);
    if (isStorageType(type) && spec.variant !== 'common' && spec.variant !== type) {
      reportAt(diags, doc, ['config', name], `is a field of storage_type ${spec.variant}, not ${type}`);
    }
  }
  if (type !== undefined && !isStorageType(type)) {
    const hint = typeof type === 'string' ? didYouMean(type, STORAGE_TYPES) : '';
    reportAt(diags, doc, ['config', 'storage_type'], `must be one of ${STORAGE_TYPES.join(', ')}${hint}`);
  }
}

/** The fields the storage type requires, given and not empty. */
export function checkRequiredConfig(doc: SnapshotPolicyDocument, diags: Diagnostics): void {
  const config = doc.data.config;
  const type = config['storage_type'];
  const required = isStorageType(type) ? fieldsOf(type) : fieldsOf('local').filter((f) => f.variant === 'common');
  for (const spec of required.filter((f) => f.required)) {
    const value = config[spec.name];
    if (value === undefined || value === null) {
      const why = spec.variant === 'common' ? '' : ` (required for storage_type ${spec.variant})`;
      diags.error(`missing required field "${spec.name}" in config${why}`, doc.source.pos(['config']));
    } else if (!isGiven(value)) {
      reportAt(diags, doc, ['config', spec.name], 'must not be empty');
    }
  }
}

function valueProblems(spec: SnapshotFieldSpec, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  switch (spec.form) {
    case 'duration': {
      const parsed = readDuration(value);
      if (parsed.kind === 'refused') return [DURATION_MESSAGE];
      // The service truncates silently; a manifest says what it means.
      if (parsed.value.truncated) return ['must be a whole number of seconds (the server drops fractions of a second)'];
      return parsed.value.seconds < 1 ? ['must be at least 1 second'] : [];
    }
    case 'count': {
      const n = countOf(value);
      if (n === undefined) return ['must be a whole number, 1 or more'];
      return n < 1 ? ['must be 1 or more (the snapshot just written is always kept)'] : [];
    }
    case 'bytes': {
      const parsed = parseBytesDetailed(value);
      if ('bytes' in parsed) return parsed.bytes < 1 ? ['must be more than 0 bytes (every snapshot attempt would fail)'] : [];
      if (parsed.problem === 'fraction') return ['must come to a whole number of bytes'];
      if (parsed.problem === 'too-large') return ['is too large (more than 2^53 - 1 bytes)'];
      return [BYTES_MESSAGE];
    }
    case 'bool':
      return boolOf(value) === undefined ? ['must be true or false'] : [];
    case 'string':
      return [];
    default:
      return assertNever(spec.form);
  }
}
