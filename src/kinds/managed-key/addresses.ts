import { Address } from '../../core/address.js';
import { isKeyType, type KeyType } from './types.js';

/** One namespace of one cluster: where managed keys live. */
export interface KeyScope {
  cluster: string;
  /** '' for the root namespace. */
  namespace: string;
}

function nsSegments(namespace: string): string[] {
  return namespace.split('/').filter((s) => s !== '');
}

/** `<cluster>:<ns/>sys/managed-keys/<type>/<name>` */
export function keyAddress(scope: KeyScope, type: KeyType, name: string): Address {
  return new Address(scope.cluster, [...nsSegments(scope.namespace), 'sys', 'managed-keys', type, name]);
}

/** `<cluster>:<ns/>sys/managed-keys/<type>`: the collection LISTed in full. */
export function collectionAddress(scope: KeyScope, type: KeyType): Address {
  return new Address(scope.cluster, [...nsSegments(scope.namespace), 'sys', 'managed-keys', type]);
}

/** `<cluster>:<ns/>sys/mounts`: where the namespace's mount usage of keys is recorded. */
export function usersAddress(scope: KeyScope): Address {
  return new Address(scope.cluster, [...nsSegments(scope.namespace), 'sys', 'mounts']);
}

/** API path of a namespace-relative path: `team-a/sys/auth`. */
export function scopedPath(scope: KeyScope, path: string): string {
  return scope.namespace === '' ? path : `${scope.namespace}/${path}`;
}

export interface KeyLocation extends KeyScope {
  type: KeyType;
  name: string;
}

/** What a key address (`[ns/]sys/managed-keys/<type>/<name>`) stands for; undefined for other addresses. */
export function locateKey(address: Address): KeyLocation | undefined {
  const s = address.segments;
  const n = s.length;
  if (n < 4 || s[n - 4] !== 'sys' || s[n - 3] !== 'managed-keys' || !isKeyType(s[n - 2])) return undefined;
  return { cluster: address.cluster, namespace: s.slice(0, n - 4).join('/'), type: s[n - 2] as KeyType, name: s[n - 1]! };
}

export function scopeKey(scope: KeyScope): string {
  return JSON.stringify([scope.cluster, scope.namespace]);
}
