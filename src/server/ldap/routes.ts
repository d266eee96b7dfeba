import { Router } from '../http/router.js';
import { ldapAdminRoutes } from './admin-routes.js';
import { ldapLoginRoute } from './login-route.js';

/** Every path of an LDAP auth mount, relative to `auth/<mount>/`. */
export const ldapRouter = new Router([...ldapAdminRoutes, ldapLoginRoute]);
