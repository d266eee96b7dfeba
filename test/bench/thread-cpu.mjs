// CPU time of this process's main thread and of all its other threads (V8's optimising compiler
// and garbage collector helpers, libuv's pool), since the process started, in milliseconds; from
// /proc (Linux), undefined elsewhere. The split says whether a cost is on the one thread that
// sends and reads the requests, or beside it, competing with the server for the cores.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

export function threadCpu() {
  let tasks;
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return undefined;
  }
  let mainMs = 0;
  let helpersMs = 0;
  for (const task of tasks) {
    let stat;
    try {
      stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    } catch {
      continue; // a thread that ended meanwhile
    }
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    if (Number(task) === process.pid) mainMs += ms;
    else helpersMs += ms;
  }
  return { mainMs, helpersMs };
}
