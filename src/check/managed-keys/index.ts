export { checkManagedKeyBackend, type Finding } from './check-backend.js';
