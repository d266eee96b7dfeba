export { checkManagedKeyBackend, type CheckManagedKeyOptions, type Finding } from './check-backend.js';
