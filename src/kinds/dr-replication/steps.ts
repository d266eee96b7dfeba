import { Address } from '../../core/address.js';
import { drPath } from './addresses.js';
import type { SecondaryOptions } from './types.js';

/**
 * One step of a DR transition, as the planner thinks of it. `cluster` is where the request is
 * sent; `primary` names the primary a secondary step talks about. Steps carry no secret: the
 * operation tokens, activation tokens and public keys are found at apply time.
 */
export type Step =
  | { op: 'enable-primary'; cluster: string; primaryClusterAddr: string }
  | { op: 'demote'; cluster: string; newPrimary: string }
  | { op: 'disable-primary'; cluster: string }
  | { op: 'promote'; cluster: string; primaryClusterAddr: string; force: boolean; unreachable: string[] }
  | { op: 'generate-public-key'; cluster: string }
  | { op: 'secondary-token'; cluster: string; secondary: string; ttlSeconds: number }
  | { op: 'enable-secondary'; cluster: string; primary: string; options: SecondaryOptions }
  | { op: 'update-primary'; cluster: string; primary: string; options: SecondaryOptions }
  | { op: 'revoke-secondary'; cluster: string; secondaryId: string }
  | { op: 'disable-secondary'; cluster: string }
  | { op: 'delete-operation-token'; cluster: string };

/** The endpoint a step calls (relative to `sys/replication/dr`). */
export function endpointOf(step: Step): string {
  switch (step.op) {
    case 'enable-primary':
      return 'primary/enable';
    case 'demote':
      return 'primary/demote';
    case 'disable-primary':
      return 'primary/disable';
    case 'promote':
      return 'secondary/promote';
    case 'generate-public-key':
      return 'secondary/generate-public-key';
    case 'secondary-token':
      return 'primary/secondary-token';
    case 'enable-secondary':
      return 'secondary/enable';
    case 'update-primary':
      return 'secondary/update-primary';
    case 'revoke-secondary':
      return 'primary/revoke-secondary';
    case 'disable-secondary':
      return 'secondary/disable';
    case 'delete-operation-token':
      return 'secondary/operation-token/delete';
  }
}

/**
 * The step's address: the endpoint's path, plus the secondary it concerns for the primary's
 * per-secondary endpoints, so every step of a plan has its own address.
 */
export function stepAddress(step: Step): Address {
  const path = drPath(endpointOf(step));
  switch (step.op) {
    case 'secondary-token':
      return new Address(step.cluster, [...path.split('/'), step.secondary]);
    case 'revoke-secondary':
      return new Address(step.cluster, [...path.split('/'), step.secondaryId]);
    default:
      return new Address(step.cluster, path);
  }
}

/** The step's address as text, without building the Address (same value as its toString). */
export function stepKey(step: Step): string {
  const path = drPath(endpointOf(step));
  switch (step.op) {
    case 'secondary-token':
      return `${step.cluster}:${path}/${step.secondary}`;
    case 'revoke-secondary':
      return `${step.cluster}:${path}/${step.secondaryId}`;
    default:
      return `${step.cluster}:${path}`;
  }
}

/** Steps that wipe or orphan data (contract: they run only with --allow-destructive). */
export function isDestructive(step: Step): boolean {
  switch (step.op) {
    case 'enable-secondary':
    case 'disable-secondary':
    case 'disable-primary':
      return true;
    case 'enable-primary':
    case 'demote':
    case 'promote':
    case 'generate-public-key':
    case 'secondary-token':
    case 'update-primary':
    case 'revoke-secondary':
    case 'delete-operation-token':
      return false;
  }
}

/** Steps authorised by a DR operation token of their cluster (spec, authentication item 5). */
export function needsOperationToken(step: Step): boolean {
  switch (step.op) {
    case 'promote':
    case 'update-primary':
    case 'disable-secondary':
      return true;
    case 'enable-primary':
    case 'demote':
    case 'disable-primary':
    case 'generate-public-key':
    case 'secondary-token':
    case 'enable-secondary':
    case 'revoke-secondary':
    case 'delete-operation-token':
      return false;
  }
}

/** Steps that make a DR primary (the ones the one-primary invariant is about). */
export function makesPrimary(step: Step): boolean {
  return step.op === 'enable-primary' || step.op === 'promote';
}
