import { mapOf, orNull, record } from '../../core/json-shape.js';

/**
 * `GET <parent/>sys/namespaces/<name>`: its path, its custom metadata (a map of strings; null
 * once cleared), and on OpenBao `tainted` while a deletion runs in the background
 * (vault/logical_system_namespaces.go createNamespaceDataResponse).
 */
export const NAMESPACE_SHAPE = record({ path: 'text', custom_metadata: orNull(mapOf('text')), tainted: 'bool' });
