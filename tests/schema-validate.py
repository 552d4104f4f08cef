#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# schema-validate.py -- validate JSON documents against a JSON schema whose
# $refs name other schema files of the same directory, resolved there and
# never fetched.
#
#   schema-validate.py SCHEMA-DIR SCHEMA-FILE DOCUMENT...
#
# Every *.json file of SCHEMA-DIR is known under its $id and under its
# file name beside the $id of SCHEMA-FILE, so a reference such as
# "spdx.schema.json" or "jsf-0.82.schema.json#/definitions/signature"
# finds the local copy.  A reference to anything else is an error.  The
# draft is the one SCHEMA-FILE's $schema names; formats are checked as
# far as the installed jsonschema can.  Prints each violation (at most 20
# a document) and exits 1 when a document is not valid, 2 on a usage or
# schema error.
import json
import os
import sys
import urllib.parse

import jsonschema


def main(argv):
    if len(argv) < 4:
        sys.stderr.write("usage: schema-validate.py SCHEMA-DIR SCHEMA-FILE DOCUMENT...\n")
        return 2
    sdir, main_file, docs = argv[1], argv[2], argv[3:]
    schemas = {}
    for name in sorted(os.listdir(sdir)):
        if name.endswith(".json"):
            with open(os.path.join(sdir, name), encoding="utf-8") as f:
                schemas[name] = json.load(f)
    if main_file not in schemas:
        sys.stderr.write("schema-validate.py: no %s in %s\n" % (main_file, sdir))
        return 2
    root = schemas[main_file]
    base = root.get("$id") or root.get("id") or "urn:local:" + main_file
    store = {}
    for name, s in schemas.items():
        store[urllib.parse.urljoin(base, name)] = s
        sid = s.get("$id") or s.get("id")
        if sid:
            store[sid.rstrip("#")] = s
    cls = jsonschema.validators.validator_for(root)
    cls.check_schema(root)
    try:
        from referencing import Registry, Resource
        from referencing.jsonschema import specification_with

        default = specification_with(root.get("$schema", ""), default=None)

        def retrieve(uri):
            raise LookupError("not a local schema: %s" % uri)

        registry = Registry(retrieve=retrieve).with_resources(
            (uri, Resource.from_contents(s, default_specification=default) if default
             else Resource.from_contents(s))
            for uri, s in store.items())
        validator = cls(root, registry=registry, format_checker=cls.FORMAT_CHECKER)
    except ImportError:
        # jsonschema before 4.18: its RefResolver, with the same store and
        # no remote fetching.
        class LocalResolver(jsonschema.RefResolver):
            def resolve_remote(self, uri):
                raise jsonschema.exceptions.RefResolutionError(
                    "not a local schema: %s" % uri)

        resolver = LocalResolver(base, root, store=store)
        validator = cls(root, resolver=resolver, format_checker=cls.FORMAT_CHECKER)
    bad = 0
    for doc in docs:
        with open(doc, encoding="utf-8") as f:
            instance = json.load(f)
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
        for e in errors[:20]:
            where = "/".join(str(p) for p in e.absolute_path) or "(document)"
            print("%s: %s: %s" % (doc, where, e.message[:300]))
        if errors:
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
