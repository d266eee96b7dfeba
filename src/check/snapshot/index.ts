export { checkSnapshotDestination, type DestinationCheckOptions } from './destination.js';
export { checkSnapshotStatus, graceSeconds, GRACE_FIXED_SECONDS, GRACE_FRACTION, type SnapshotStatus } from './status.js';
export { intervalSeconds } from './status.js';
export type { Finding, SnapshotCheckConfig } from './types.js';
