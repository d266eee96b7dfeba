import type { KindModule } from '../kind.js';
import { applyDrChange } from './apply.js';
import { checkDrReplication } from './check.js';
import { desiredDrReplication } from './desired.js';
import { exportDrReplication } from './export.js';
import { planDrReplication } from './kind-plan.js';
import { readDrReplication } from './read.js';
import { checkDrValues, validateDrReplication } from './rules.js';
import { drSecretPaths } from './secrets.js';
import { DR_REPLICATION_KIND, DR_REPLICATION_SCHEMA_FILE, DR_SET, DR_STEP } from './types.js';
import { STATUS_PATH } from './addresses.js';

/**
 * DR replication sets: which cluster is the DR primary and which follow it. Planned by its own
 * pure planner (a change of roles is an ordered sequence across clusters, never two primaries),
 * applied step by step with guards re-checked before each step.
 */
export const drReplicationKind: KindModule = {
  kind: DR_REPLICATION_KIND,
  resourceTypes: [DR_SET, DR_STEP],
  placement: 'none',
  schemaFile: DR_REPLICATION_SCHEMA_FILE,
  feature: { name: 'DR replication', probe: { method: 'GET', path: STATUS_PATH } },
  secretPaths: drSecretPaths,
  validate: validateDrReplication,
  checkValues: checkDrValues,
  desired: desiredDrReplication,
  read: readDrReplication,
  plan: planDrReplication,
  apply: applyDrChange,
  export: exportDrReplication,
  check: checkDrReplication,
};

export { planSequence, type PlanSetInput, type PlannedSequence } from './planner.js';
export { applyStep, initialState, primariesOf, simulate, type SimState } from './simulator.js';
export { decodeOperationToken, encodeOperationToken, generateOtp } from './otp.js';
export type { Step } from './steps.js';
