import { createServer, type Server } from 'node:http';

/**
 * A stand-in for GitLab's REST API (v4) in the CI template tests: the endpoints the
 * gitlab-*.sh scripts call, for one project, with notes, issues, merge requests, pipelines,
 * jobs and artifacts kept in memory and every request recorded. A request without the right
 * PRIVATE-TOKEN is refused (401), as GitLab does.
 */
export interface FakeGitLab {
  apiUrl: string;
  projectId: string;
  token: string;
  requests: Array<{ method: string; path: string; body: Record<string, string> }>;
  notes: Array<{ id: number; mr: number; body: string }>;
  issues: Array<{ iid: number; title: string; labels: string[]; description: string; state: 'opened' | 'closed'; notes: string[] }>;
  mergeRequests: Array<{ iid: number; sha: string; state: string; mergeCommit: string }>;
  pipelines: Array<{ id: number; mr: number; sha: string; status: string; jobs: Array<{ id: number; name: string; status: string; artifacts: Record<string, string> }> }>;
  close(): Promise<void>;
}

export async function startFakeGitLab(): Promise<FakeGitLab> {
  let nextId = 100;
  const fake: Omit<FakeGitLab, 'apiUrl' | 'close'> = {
    projectId: '42',
    token: `glpat-${Math.random().toString(36).slice(2)}`,
    requests: [],
    notes: [],
    issues: [],
    mergeRequests: [],
    pipelines: [],
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = Object.fromEntries(new URLSearchParams(raw));
      const method = req.method ?? 'GET';
      fake.requests.push({ method, path: url.pathname + url.search, body });
      const send = (status: number, value: unknown): void => {
        res.writeHead(status, { 'content-type': typeof value === 'string' ? 'application/octet-stream' : 'application/json' });
        res.end(typeof value === 'string' ? value : JSON.stringify(value));
      };
      if (req.headers['private-token'] !== fake.token) return send(401, { message: '401 Unauthorized' });
      const prefix = `/api/v4/projects/${fake.projectId}/`;
      if (!url.pathname.startsWith(prefix)) return send(404, { message: '404 Project Not Found' });
      const p = url.pathname.slice(prefix.length);
      let m: RegExpExecArray | null;
      if ((m = /^merge_requests\/(\d+)\/notes$/.exec(p))) {
        const mr = Number(m[1]);
        if (method === 'GET') return send(200, fake.notes.filter((n) => n.mr === mr).map(({ id, body }) => ({ id, body })));
        if (method === 'POST') {
          const note = { id: nextId++, mr, body: body['body'] ?? '' };
          fake.notes.push(note);
          return send(201, note);
        }
      }
      if ((m = /^merge_requests\/(\d+)\/notes\/(\d+)$/.exec(p)) && method === 'PUT') {
        const note = fake.notes.find((n) => n.mr === Number(m![1]) && n.id === Number(m![2]));
        if (!note) return send(404, { message: '404 Not found' });
        note.body = body['body'] ?? '';
        return send(200, note);
      }
      if ((m = /^repository\/commits\/([0-9a-f]+)\/merge_requests$/.exec(p)) && method === 'GET') {
        return send(200, fake.mergeRequests.filter((r) => r.mergeCommit === m![1]).map(({ iid, sha, state }) => ({ iid, sha, state })));
      }
      if ((m = /^merge_requests\/(\d+)\/pipelines$/.exec(p)) && method === 'GET') {
        const list = fake.pipelines.filter((x) => x.mr === Number(m![1])).reverse(); // newest first
        return send(200, list.map(({ id, sha, status }) => ({ id, sha, status })));
      }
      if ((m = /^pipelines\/(\d+)\/jobs$/.exec(p)) && method === 'GET') {
        const scope = url.searchParams.getAll('scope[]');
        const jobs = fake.pipelines.find((x) => x.id === Number(m![1]))?.jobs ?? [];
        return send(200, jobs.filter((j) => scope.length === 0 || scope.includes(j.status)).map(({ id, name, status }) => ({ id, name, status })));
      }
      if ((m = /^jobs\/(\d+)\/artifacts\/(.+)$/.exec(p)) && method === 'GET') {
        const job = fake.pipelines.flatMap((x) => x.jobs).find((j) => j.id === Number(m![1]));
        const file = job?.artifacts[m[2]!];
        return file === undefined ? send(404, { message: '404 Not found' }) : send(200, file);
      }
      if (p === 'issues' && method === 'GET') {
        const labels = (url.searchParams.get('labels') ?? '').split(',').filter(Boolean);
        const state = url.searchParams.get('state');
        const found = fake.issues.filter((i) => labels.every((l) => i.labels.includes(l)) && (!state || state === 'all' || i.state === state));
        return send(200, found.slice(0, Number(url.searchParams.get('per_page') ?? 20)).map(({ iid, state: s }) => ({ iid, state: s })));
      }
      if (p === 'issues' && method === 'POST') {
        const issue = { iid: nextId++, title: body['title'] ?? '', labels: (body['labels'] ?? '').split(',').filter(Boolean), description: body['description'] ?? '', state: 'opened' as const, notes: [] };
        fake.issues.push(issue);
        return send(201, issue);
      }
      if ((m = /^issues\/(\d+)(\/notes)?$/.exec(p))) {
        const issue = fake.issues.find((i) => i.iid === Number(m![1]));
        if (!issue) return send(404, { message: '404 Not found' });
        if (m[2] && method === 'POST') {
          issue.notes.push(body['body'] ?? '');
          return send(201, {});
        }
        if (!m[2] && method === 'PUT') {
          if (body['description'] !== undefined) issue.description = body['description'];
          if (body['state_event'] === 'close') issue.state = 'closed';
          return send(200, issue);
        }
      }
      send(404, { message: `404 ${method} ${p} not faked` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return {
    ...fake,
    apiUrl: `http://127.0.0.1:${port}/api/v4`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
