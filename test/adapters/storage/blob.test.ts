import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobStore, openObjectStore, StorageError } from '../../../src/adapters/storage/index.js';
import { startAzurite, type Azurite } from '../../support/azurite.js';
import { storeContract, type ContractTarget } from './contract.js';

let az: Azurite;
beforeAll(async () => {
  az = await startAzurite({ container: 'snapshots' });
});
afterAll(async () => {
  await az?.stop();
});

describe('blob store: contract against azurite', () => {
  let target: ContractTarget;
  beforeAll(() => {
    target = { store: openObjectStore(az.config({ path_prefix: 'cluster-a/' })), pathPrefix: 'cluster-a/' };
  });
  storeContract(() => target);
});

describe('blob store', () => {
  it('refuses a wrong account key (403) without quoting any key', async () => {
    const wrongKey = Buffer.from('x'.repeat(64)).toString('base64');
    const store = openObjectStore(az.config({ provB_account_key: wrongKey }), { attempts: 1 });
    const err = await store.put('snapshots/x.snap', Buffer.from('x')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect(err).toMatchObject({ kind: 'access-denied' });
    expect((err as Error).message).not.toContain(wrongKey);
    expect((err as Error).message).not.toContain(az.accountKey);
  });

  it('reports a missing container as not-found', async () => {
    const store = openObjectStore(az.config({ provB_container_name: 'no-such-container' }), { attempts: 1 });
    await expect(store.put('snapshots/x.snap', Buffer.from('x'))).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('needs container, account name and key', () => {
    expect(() => openObjectStore(az.config({ provB_container_name: '' }))).toThrow(/provB_container_name/);
    expect(() => openObjectStore(az.config({ provB_account_key: undefined }))).toThrow(/provB_account_key/);
  });

  it('builds the account URL from provB_blob_environment, public cloud by default', () => {
    const base = { storage_type: 'provB-blob', path_prefix: 'snaps/', provB_container_name: 'c', provB_account_name: 'acct', provB_account_key: az.accountKey };
    expect(new BlobStore(base).describe()).toBe('https://acct.blob.core.windows.net/c/snaps/');
    expect(new BlobStore({ ...base, provB_blob_environment: 'PROVBCHINACLOUD' }).describe()).toBe('https://acct.blob.core.chinacloudapi.cn/c/snaps/');
    expect(new BlobStore({ ...base, provB_blob_environment: 'AzureUSGovernmentCloud' }).describe()).toBe('https://acct.blob.core.usgovcloudapi.net/c/snaps/');
    expect(() => new BlobStore({ ...base, provB_blob_environment: 'MARS' })).toThrow(/unknown provB_blob_environment/);
  });

  it('describes the endpoint override without credentials', () => {
    const store = openObjectStore(az.config());
    expect(store.describe()).toBe(`${az.endpoint}/snapshots/snapshots/`);
    expect(store.describe()).not.toContain(az.accountKey);
  });

  it('refuses a key the SDK cannot use, without quoting it', () => {
    let message = '';
    try {
      openObjectStore(az.config({ provB_account_key: 'not base64 at all %%% secret-bits' }));
    } catch (err) {
      message = (err as Error).message;
    }
    // Node's base64 decoder is lenient: either it is refused, or accepted; never quoted.
    expect(message).not.toContain('secret-bits');
  });
});
