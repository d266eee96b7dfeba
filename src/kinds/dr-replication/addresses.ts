import { Address } from '../../core/address.js';

/** DR replication lives at the root of a cluster (never in a namespace). */
export const DR_BASE = 'sys/replication/dr';

/** Where the desired set lives: `<primary>:sys/replication/dr`. */
export function setAddress(primary: string): Address {
  return new Address(primary, DR_BASE);
}

const statusAddresses = new Map<string, Address>();

/** A cluster's status report: `<cluster>:sys/replication/dr/status` (addresses are immutable: shared). */
export function statusAddress(cluster: string): Address {
  let address = statusAddresses.get(cluster);
  if (!address) {
    address = new Address(cluster, `${DR_BASE}/status`);
    statusAddresses.set(cluster, address);
  }
  return address;
}

/** The API path of a DR endpoint, e.g. `sys/replication/dr/primary/enable`. */
export function drPath(endpoint: string): string {
  return `${DR_BASE}/${endpoint}`;
}

export const STATUS_PATH = drPath('status');
export const ATTEMPT_PATH = drPath('secondary/generate-operation-token/attempt');
export const UPDATE_PATH = drPath('secondary/generate-operation-token/update');
