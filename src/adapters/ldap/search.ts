import { FilterParser, MessageResponseStatus, PagedResultsControl, SearchRequest, StatusCodeParser } from 'ldapts';
import type { Client, SearchEntry, SearchOptions, SearchResponse, SearchResult } from 'ldapts';

type DereferenceAliases = 'never' | 'finding' | 'searching' | 'always';

/** The service's dereference_aliases names → the protocol's derefAliases values. */
const DEREF: Record<DereferenceAliases, NonNullable<SearchOptions['derefAliases']>> = {
  never: 'never',
  finding: 'find',
  searching: 'search',
  always: 'always',
};

export interface SearchSpec {
  base: string;
  filter?: string;
  scope?: 'base' | 'one' | 'sub';
  /** Attributes to return; `['1.1']` for none. Default: all user attributes. */
  attributes?: string[];
  /** A DereferenceAliases name as the server stores it; other text means 'never'. */
  deref?: string;
  /** > 0: use the paged-results control with this page size (all pages are read). */
  pageSize?: number;
  /** > 0: the most entries to return (the directory's own limit may be lower). */
  sizeLimit?: number;
}

/** A search result entry with every value as text. */
export interface LdapEntry {
  dn: string;
  attributes: Record<string, string[]>;
}

export async function searchEntries(client: Client, spec: SearchSpec): Promise<LdapEntry[]> {
  const { searchEntries: raw } = await searchDeref(client, spec.base, {
    scope: spec.scope ?? 'sub',
    filter: spec.filter ?? '(objectClass=*)',
    derefAliases: DEREF[(spec.deref ?? 'never') as DereferenceAliases] ?? 'never',
    attributes: spec.attributes,
    paged: spec.pageSize && spec.pageSize > 0 ? { pageSize: spec.pageSize } : undefined,
  });
  return raw.map(entryOf);
}

function entryOf(e: SearchResult['searchEntries'][number]): LdapEntry {
  const attributes: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(e)) {
    if (name === 'dn') continue;
    const values = Array.isArray(value) ? value : [value];
    attributes[name] = values.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v)));
  }
  return { dn: e.dn, attributes };
}

/**
 * The entry as entryOf gives it, read from the message itself: not through ldapts's toObject
 * (an object of its own, a Set of lower-cased names and an empty list for each attribute asked
 * for and absent: nothing reads those but as no values) for each of a listing's entries.
 */
function entryOfMessage(e: SearchEntry): LdapEntry {
  const attributes: Record<string, string[]> = {};
  for (const { type, values, parsedBuffers } of e.attributes) {
    // A value that is not UTF-8 (or a ;binary one) is kept as bytes: toObject then takes every value as bytes.
    attributes[type] = values.some((v) => typeof v !== 'string') ? parsedBuffers.map((b) => b.toString('utf8')) : (values as string[]);
  }
  return { dn: e.name, attributes };
}

/** What a search found; `complete` false when the directory's size limit stopped it, with the entries sent until then. */
export interface LimitedSearch {
  entries: LdapEntry[];
  complete: boolean;
  /** The page size the directory took (below the one asked for when it refused that one); undefined unpaged. */
  pageSize?: number;
}

/**
 * RFC 4511 adminLimitExceeded: what slapd answers a page larger than its `size.pr` limit
 * ("illegal pagedResults page size", limits.c limits_check), naming no size it would take.
 */
const ADMIN_LIMIT_EXCEEDED = 11;

/**
 * A search (paged when `spec.pageSize` > 0) that answers the directory's size limit with the
 * entries it sent before it (every page counted): as many as the limit allows, which tells the
 * caller the limit and how the names it cannot list at once are spread. ldapts drops those
 * entries with the error, so the pages are sent here, as Client.search sends them.
 */
export async function searchUpToLimit(client: Client, spec: SearchSpec): Promise<LimitedSearch> {
  const internals = client as unknown as Partial<SendInternals>;
  if (typeof internals._send !== 'function' || typeof internals._nextMessageId !== 'function' || typeof internals._ensureConnected !== 'function') {
    throw new Error('this ldapts version cannot return the entries of a search stopped by a size limit');
  }
  await internals._ensureConnected.call(client);
  const attributes = spec.attributes;
  const filter = FilterParser.parseString(spec.filter ?? '(objectClass=*)');
  const derefAliases = DEREF[(spec.deref ?? 'never') as DereferenceAliases] ?? 'never';
  const entries: LdapEntry[] = [];
  let cookie: Buffer | undefined;
  let pageSize = spec.pageSize && spec.pageSize > 0 ? spec.pageSize : undefined;
  for (;;) {
    const control = pageSize ? new PagedResultsControl({ value: { size: pageSize, ...(cookie ? { cookie } : {}) } }) : undefined;
    const request = new SearchRequest({ messageId: internals._nextMessageId.call(client), baseDN: spec.base, scope: spec.scope ?? 'sub', derefAliases, filter, attributes, sizeLimit: spec.sizeLimit ?? 0, controls: control ? [control] : [] });
    const response = await internals._send.call(client, request);
    // A first page refused for its size: half as large, until one is taken (at most log2(size) requests).
    if (response.status === ADMIN_LIMIT_EXCEEDED && pageSize !== undefined && pageSize > 1 && cookie === undefined) {
      pageSize = Math.floor(pageSize / 2);
      continue;
    }
    if (response.status !== MessageResponseStatus.Success && response.status !== MessageResponseStatus.SizeLimitExceeded) throw StatusCodeParser.parse(response);
    for (const e of response.searchEntries) entries.push(entryOfMessage(e));
    if (response.status === MessageResponseStatus.SizeLimitExceeded) return { entries, complete: false, ...(pageSize ? { pageSize } : {}) };
    const next = response.controls?.find((c): c is PagedResultsControl => c instanceof PagedResultsControl)?.value?.cookie;
    if (!control || !next?.length || response.searchEntries.length === 0) return { entries, complete: true, ...(pageSize ? { pageSize } : {}) };
    cookie = next;
  }
}

/** The private ldapts methods Client.search sends a search with. */
interface SendInternals {
  _ensureConnected(): Promise<void>;
  _nextMessageId(): number;
  _send(request: SearchRequest): Promise<SearchResponse>;
}

/** Values of an attribute, matched case-insensitively (servers answer in schema case). */
export function attributeValues(entry: LdapEntry, name: string): string[] {
  const wanted = name.toLowerCase();
  // Keys walked without Object.entries' pair arrays: called for each entry of a listing.
  for (const key in entry.attributes) {
    if (key === name || key.toLowerCase() === wanted) return entry.attributes[key]!;
  }
  return [];
}

/** The private ldapts methods Client.search itself uses. */
interface ClientInternals {
  _ensureConnected(): Promise<void>;
  _sendSearch(
    request: SearchRequest,
    result: SearchResult,
    paged: boolean,
    pageSize: number,
    control: PagedResultsControl | undefined,
  ): Promise<unknown>;
}

/**
 * Client.search, honouring derefAliases: ldapts 8.2 accepts the option but never copies it
 * into the request it sends. For anything but `never` we build the request ourselves and send
 * it the way Client.search does (with its private helpers, checked at run time).
 */
async function searchDeref(client: Client, base: string, options: SearchOptions): Promise<SearchResult> {
  if ((options.derefAliases ?? 'never') === 'never') return client.search(base, options);
  const internals = client as unknown as Partial<ClientInternals>;
  if (typeof internals._sendSearch !== 'function' || typeof internals._ensureConnected !== 'function') {
    throw new Error('this ldapts version cannot send dereference_aliases');
  }
  await internals._ensureConnected.call(client);
  const pageSize = typeof options.paged === 'object' && options.paged.pageSize ? options.paged.pageSize : 100;
  const control = options.paged ? new PagedResultsControl({ value: { size: pageSize } }) : undefined;
  const request = new SearchRequest({
    messageId: -1,
    baseDN: base,
    scope: options.scope,
    derefAliases: options.derefAliases,
    filter: FilterParser.parseString(typeof options.filter === 'string' ? options.filter : '(objectClass=*)'),
    attributes: options.attributes,
    controls: control ? [control] : [],
  });
  const result: SearchResult = { searchEntries: [], searchReferences: [] };
  await internals._sendSearch.call(client, request, result, Boolean(control), pageSize, control);
  return result;
}
