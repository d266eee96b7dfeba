// A floor from a process of its own, as the CLI runs:
// `node floor-process.mjs BASE_URL METHOD USERS MOUNT [node|pool]`, sent with Node's http client
// (`node`, the default) or lockstep's transport (`pool`). Reports the requests' wall and CPU
// time (start-up excluded) on file descriptor 3 as JSON.
import { writeSync } from 'node:fs';
import { bodyOf, floor, floorPool, objectPaths } from './workload.mjs';
import { threadCpu } from './thread-cpu.mjs';

const [baseUrl, method, users, mount, client = 'node'] = process.argv.slice(2);
const send = client === 'pool' ? floorPool : floor;
// Loaded before the clock starts, as the http module is.
if (client === 'pool') await import(new URL('../../dist/client/transport.js', import.meta.url).href);
const cpu0 = process.cpuUsage();
const wallMs = await send(baseUrl, method, objectPaths(Number(users), mount), method === 'POST' ? bodyOf : undefined);
const cpu = process.cpuUsage(cpu0);
writeSync(3, JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, threads: threadCpu() }) + '\n');
