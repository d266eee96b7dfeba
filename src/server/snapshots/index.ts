/** Automated Raft-style snapshots of the embedded server: configurations, scheduler, file format, restore. */
export { snapshotAutoRoutes } from './routes.js';
export { SnapshotScheduler, type SnapshotSource } from './scheduler.js';
export { loadRestores, parseRestoreSpecs, readSnapshotFile, restoreInto, type RestoreOption } from './restore.js';
export { decodeSnapshot, encodeSnapshot, SnapshotFormatError, type DecodedSnapshot, type SnapshotHeader } from './format.js';
export type { SnapshotConfig } from './config.js';
