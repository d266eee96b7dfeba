#!/usr/bin/env node
// A stand-in for the GitHub CLI (`gh`) in the CI template tests: the handful of commands the
// scripts in examples/ci/scripts use, against a state kept in the JSON file $FAKE_GH_STATE
// (comments, issues, labels, workflow runs and their artifacts), every call recorded there.
// `--jq` goes through the real jq, as gh applies its own. Anything else fails loudly.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const stateFile = process.env.FAKE_GH_STATE;
const state = JSON.parse(readFileSync(stateFile, 'utf8'));
const argv = process.argv.slice(2);
state.calls.push(argv);
const save = () => writeFileSync(stateFile, JSON.stringify(state, null, 2));
const fail = (message) => {
  save();
  process.stderr.write(`fake gh: ${message}\n`);
  process.exit(1);
};
if (!process.env.GH_TOKEN) fail('GH_TOKEN is not set (gh would not be authenticated)');

/** Splits argv into positionals and options (repeatable ones as arrays). */
function parse(args, booleans = []) {
  const positional = [];
  const options = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) {
      positional.push(a);
      continue;
    }
    const name = a.replace(/^-+/, '');
    if (booleans.includes(name)) options[name] = true;
    else (options[name] ??= []).push(args[++i]);
  }
  return { positional, options };
}
const one = (options, ...names) => names.map((n) => options[n]?.[0]).find((v) => v !== undefined);

function print(value, jq) {
  const json = JSON.stringify(value);
  if (!jq) return process.stdout.write(json + '\n');
  const r = spawnSync('jq', ['-r', jq], { input: json, encoding: 'utf8' });
  if (r.status !== 0) fail(`jq ${jq}: ${r.stderr}`);
  process.stdout.write(r.stdout);
}

function repoOf(options) {
  const repo = one(options, 'repo', 'R') ?? process.env.GH_REPO;
  if (repo !== state.repo) fail(`unknown repository ${repo}`);
  return repo;
}

const [group, command, ...rest] = argv;
if (group === 'api') {
  const { positional, options } = parse([command, ...rest], ['paginate']);
  const [endpoint] = positional;
  const fields = Object.fromEntries((options.F ?? options.field ?? []).map((f) => {
    const [k, ...v] = f.split('=');
    const value = v.join('=');
    return [k, value.startsWith('@') ? readFileSync(value.slice(1), 'utf8') : value];
  }));
  const method = one(options, 'X', 'method') ?? (Object.keys(fields).length > 0 ? 'POST' : 'GET');
  let m;
  if ((m = /^repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/.exec(endpoint)) && m[1] === state.repo) {
    const issue = Number(m[2]);
    if (method === 'GET') print(state.comments.filter((c) => c.issue === issue), one(options, 'jq', 'q'));
    else if (method === 'POST') {
      const comment = { id: state.nextId++, issue, body: fields.body };
      state.comments.push(comment);
      print(comment);
    } else fail(`${method} ${endpoint}`);
  } else if ((m = /^repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/.exec(endpoint)) && m[1] === state.repo && method === 'PATCH') {
    const comment = state.comments.find((c) => c.id === Number(m[2]));
    if (!comment) fail(`no comment ${m[2]}`);
    comment.body = fields.body;
    print(comment);
  } else fail(`api ${method} ${endpoint}`);
} else if (group === 'run' && command === 'list') {
  const { options } = parse(rest);
  repoOf(options);
  const runs = state.runs
    .filter((r) => r.workflow === one(options, 'workflow', 'w') && r.headSha === one(options, 'commit', 'c'))
    .filter((r) => !one(options, 'status', 's') || r.conclusion === one(options, 'status', 's'));
  print(runs.slice(0, Number(one(options, 'limit', 'L') ?? 20)).map((r) => ({ databaseId: r.databaseId })), one(options, 'jq', 'q'));
} else if (group === 'run' && command === 'download') {
  const { positional, options } = parse(rest);
  repoOf(options);
  const run = state.runs.find((r) => r.databaseId === Number(positional[0]));
  const dir = run?.artifacts?.[one(options, 'name', 'n')];
  if (!dir) fail(`no artifact ${one(options, 'name', 'n')} in run ${positional[0]}`);
  cpSync(dir, path.resolve(one(options, 'dir', 'D') ?? '.'), { recursive: true });
} else if (group === 'issue') {
  const { positional, options } = parse(rest);
  repoOf(options);
  const body = () => readFileSync(one(options, 'body-file', 'F'), 'utf8');
  const issue = () => state.issues.find((i) => i.number === Number(positional[0])) ?? fail(`no issue ${positional[0]}`);
  if (command === 'list') {
    const label = one(options, 'label', 'l');
    const wanted = one(options, 'state', 's') ?? 'open';
    const found = state.issues.filter((i) => (!label || i.labels.includes(label)) && (wanted === 'all' || i.state === wanted));
    print(found.slice(0, Number(one(options, 'limit', 'L') ?? 30)).map((i) => ({ number: i.number })), one(options, 'jq', 'q'));
  } else if (command === 'create') {
    const labels = options.label ?? [];
    for (const l of labels) if (!state.labels.includes(l)) fail(`label ${l} does not exist`);
    const created = { number: state.nextId++, title: one(options, 'title', 't'), labels, body: body(), state: 'open', comments: [] };
    state.issues.push(created);
    process.stdout.write(`https://github.com/${state.repo}/issues/${created.number}\n`);
  } else if (command === 'edit') issue().body = body();
  else if (command === 'close') {
    const closed = issue();
    closed.state = 'closed';
    if (one(options, 'comment', 'c')) closed.comments.push(one(options, 'comment', 'c'));
  } else fail(`issue ${command}`);
} else if (group === 'label' && command === 'create') {
  const { positional, options } = parse(rest, ['force', 'f']);
  repoOf(options);
  if (!state.labels.includes(positional[0])) state.labels.push(positional[0]);
} else fail(`unsupported: gh ${argv.join(' ')}`);
save();
