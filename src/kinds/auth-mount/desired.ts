import type { DesiredResource } from '../../core/resource.js';
import { AUTH_MOUNT_TYPE, authMountAddress, type AuthMountScope } from './scope.js';

/** The desired mount of a method of type `methodType` (e.g. `userpass`): enabled, nothing else managed. */
export function desiredAuthMount(scope: AuthMountScope, methodType: string): DesiredResource {
  return {
    address: authMountAddress(scope),
    resourceType: AUTH_MOUNT_TYPE,
    attrs: { type: methodType },
    writeOnly: {},
    sensitiveFields: [],
    dependsOn: [],
  };
}
