export { reportAt } from '../report.js';
