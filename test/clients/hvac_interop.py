"""Python hvac (Debian python3-hvac) against `lockstep serve`, the way an operator uses it.

Usage: hvac_interop.py ADDR TOKEN PHASE [BINDPASS]
  write  - enable and configure an LDAP method, its groups and users, and a namespace, with hvac
  read   - read everything back with hvac, and use the token endpoints; prints one JSON object
Exits non-zero with the error on stderr when hvac raises.
"""
import json
import sys

import hvac


def write(client, bindpass):
    client.sys.create_namespace("team-a")
    client.sys.enable_auth_method("ldap")
    client.auth.ldap.configure(
        url="ldap://ldap.example.com:389",
        user_dn="ou=people,dc=example,dc=com",
        group_dn="ou=groups,dc=example,dc=com",
        bind_dn="cn=svc,dc=example,dc=com",
        bind_pass=bindpass,
        user_attr="uid",
        use_token_groups=False,
        token_ttl="1h",
    )
    # hvac has no token_policies parameter in this release: a plain write, as operators do.
    client.write("auth/ldap/config", token_policies="Dev, ops")
    client.auth.ldap.create_or_update_group("Admins", policies=["Admin", "audit"])
    client.auth.ldap.create_or_update_group("devs", policies=["dev"])
    client.auth.ldap.create_or_update_user("Alice", policies=["oncall"], groups=["Admins", "devs"])
    return {"written": True}


def read(client):
    out = {}
    out["config"] = client.auth.ldap.read_configuration()["data"]
    out["groups"] = client.auth.ldap.list_groups()["data"]["keys"]
    out["admins"] = client.auth.ldap.read_group("admins")["data"]
    out["alice"] = client.auth.ldap.read_user("alice")["data"]
    out["health"] = client.sys.read_health_status(method="GET")
    out["health_head_status"] = client.sys.read_health_status().status_code
    out["seal"] = client.sys.read_seal_status()
    out["init"] = client.sys.read_init_status()
    out["initialized"] = client.sys.is_initialized()
    out["sealed"] = client.sys.is_sealed()
    out["auth_methods"] = sorted(client.sys.list_auth_methods()["data"].keys())
    out["namespaces"] = client.sys.list_namespaces()["data"]["keys"]
    out["self"] = client.auth.token.lookup_self()["data"]["policies"]

    created = client.auth.token.create(policies=["default"], ttl="1h")["auth"]
    child = hvac.Client(url=client.url, token=created["client_token"])
    out["child_authenticated"] = child.is_authenticated()
    out["child_lookup"] = child.auth.token.lookup_self()["data"]["policies"]
    out["child_renew"] = child.auth.token.renew_self(increment="30m")["auth"]["lease_duration"]
    out["lookup_accessor_id"] = client.auth.token.lookup_accessor(created["accessor"])["data"]["id"]
    child.auth.token.revoke_self()
    out["child_after_revoke"] = child.is_authenticated()
    return out


def main():
    addr, token, phase = sys.argv[1], sys.argv[2], sys.argv[3]
    client = hvac.Client(url=addr, token=token)
    result = write(client, sys.argv[4]) if phase == "write" else read(client)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
