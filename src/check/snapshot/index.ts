export { checkSnapshotDestination } from './destination.js';
export { checkSnapshotStatus, graceSeconds, type SnapshotStatus } from './status.js';
export { intervalSeconds } from './status.js';
export type { Finding, SnapshotCheckConfig } from './types.js';
