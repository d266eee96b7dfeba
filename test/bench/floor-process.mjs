// The floor from a process of its own, as the CLI runs: `node floor-process.mjs BASE_URL METHOD USERS [MOUNT]`.
// Reports the requests' wall and CPU time (start-up excluded) on file descriptor 3 as JSON.
import { writeSync } from 'node:fs';
import { bodyOf, floor, objectPaths } from './workload.mjs';

const [baseUrl, method, users, mount] = process.argv.slice(2);
const cpu0 = process.cpuUsage();
const wallMs = await floor(baseUrl, method, objectPaths(Number(users), mount), method === 'POST' ? bodyOf : undefined);
const cpu = process.cpuUsage(cpu0);
writeSync(3, JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000 }) + '\n');
